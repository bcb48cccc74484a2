"""k8s/: every manifest is valid against the Kubernetes schemas (offline, strict), both
kustomizations render, and the objects fit together - selectors select, references resolve,
probes hit the API's health endpoints, Redis is reachable only by the API and the workers."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import kubernetes_validate
import pytest
from skyport_deploy import (
    BASE,
    K8S,
    KUBERNETES_VERSIONS,
    KUSTOMIZATIONS,
    PRODUCTION,
    REPO,
    Doc,
    by_kind,
    dockerfile_instructions,
    exec_form,
    identity,
    kubectl_render,
    load_docs,
    load_kustomization,
    patch_paths,
    pod_spec,
    render,
    selects,
)

from services.api.client_ip import TrustedProxies

ALL_YAML = sorted(K8S.rglob("*.yaml"))
WORKLOAD_KINDS = ("Deployment", "StatefulSet")


def full_object_files() -> list[Path]:
    """Every YAML file under k8s/ that holds whole objects: all but the kustomizations and
    the overlay's patches (partial objects by design)."""
    patches = {path for directory in KUSTOMIZATIONS.values() for path in patch_paths(directory)}
    return [p for p in ALL_YAML if p.name != "kustomization.yaml" and p not in patches]


def validate_strict(doc: Doc, version: str) -> None:
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        path = ".".join(str(part) for part in error.path)
        pytest.fail(f"{doc['kind']}/{doc['metadata']['name']} at {path}: {error.message}")
    except kubernetes_validate.SchemaNotFoundError as error:
        pytest.fail(error.message)


# --- schema validation ------------------------------------------------------------------


def test_every_yaml_file_under_k8s_parses_and_is_used() -> None:
    referenced: set[Path] = set()
    for directory in KUSTOMIZATIONS.values():
        referenced.add(directory / "kustomization.yaml")
        referenced.update(patch_paths(directory))
        for entry in load_kustomization(directory).get("resources", []):
            path = (directory / entry).resolve()
            referenced.add(path / "kustomization.yaml" if path.is_dir() else path)
    for path in ALL_YAML:
        assert load_docs(path), f"{path} is empty"
        if not path.name.endswith(".example.yaml") or path.parent == BASE:
            assert path in referenced, f"{path.relative_to(REPO)} is in no kustomization"
    for path in referenced:
        assert path.is_file(), f"{path.relative_to(REPO)} is referenced but missing"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", full_object_files(), ids=lambda p: str(p.relative_to(K8S)))
def test_manifest_file_is_valid_kubernetes(path: Path, version: str) -> None:
    for doc in load_docs(path):
        validate_strict(doc, version)


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_rendered_kustomization_is_valid_kubernetes(
    rendered: tuple[str, list[Doc]], version: str
) -> None:
    _, objects = rendered
    assert objects
    for doc in objects:
        validate_strict(doc, version)


def test_strict_validation_refuses_an_unknown_field() -> None:
    """The validator is really strict: a misspelt field is an error, not ignored."""
    (deployment,) = [d for d in load_docs(BASE / "api-deployment.yaml")]
    broken = copy.deepcopy(deployment)
    broken["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSIONS[0], strict=True)


def test_overlay_patches_each_target_one_base_object() -> None:
    base = render(BASE)
    for path in patch_paths(PRODUCTION):
        for patch in load_docs(path):
            kind, _, name = identity(patch)
            targets = [o for o in base if o["kind"] == kind and o["metadata"]["name"] == name]
            assert len(targets) == 1, f"{path.name}: {kind}/{name} matches {len(targets)}"
            assert patch["apiVersion"] == targets[0]["apiVersion"], path.name


@pytest.mark.parametrize("name", sorted(KUSTOMIZATIONS))
def test_kubectl_kustomize_agrees_with_the_test_renderer(name: str) -> None:
    objects = kubectl_render(KUSTOMIZATIONS[name])
    if objects is None:
        pytest.skip("neither kubectl nor kustomize is installed; the test renderer alone checks")
    ours = {identity(doc): doc for doc in render(KUSTOMIZATIONS[name])}
    theirs = {identity(doc): doc for doc in objects}
    assert sorted(theirs) == sorted(ours)
    for key, doc in theirs.items():
        assert doc == ours[key], f"{key} differs between kubectl kustomize and the test renderer"


# --- how the objects fit together ------------------------------------------------------


def test_every_object_is_in_the_skyport_namespace(rendered: tuple[str, list[Doc]]) -> None:
    _, objects = rendered
    (namespace,) = by_kind(objects, "Namespace").values()
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    for obj in objects:
        if obj["kind"] != "Namespace":
            assert obj["metadata"]["namespace"] == namespace["metadata"]["name"], identity(obj)


def test_pods_meet_the_restricted_pod_security_standard(rendered: tuple[str, list[Doc]]) -> None:
    _, objects = rendered
    workloads = [o for o in objects if o["kind"] in WORKLOAD_KINDS]
    assert workloads
    for workload in workloads:
        spec = pod_spec(workload)
        name = workload["metadata"]["name"]
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        assert spec["securityContext"]["runAsUser"] != 0, name
        assert spec["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault", name
        assert spec.get("automountServiceAccountToken") is False, name
        assert not spec.get("hostNetwork") and not spec.get("hostPID"), name
        for volume in spec.get("volumes", []):
            assert "hostPath" not in volume, name
        for container in spec["containers"]:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False, name
            assert context["readOnlyRootFilesystem"] is True, name
            assert context["capabilities"]["drop"] == ["ALL"], name
            assert not context.get("capabilities", {}).get("add"), name
            resources = container["resources"]
            assert {"cpu", "memory"} <= set(resources["requests"]), name
            assert "memory" in resources["limits"], name


def test_skyport_containers_get_a_writable_tmp(rendered: tuple[str, list[Doc]]) -> None:
    """readOnlyRootFilesystem: /tmp is an emptyDir in every pod that runs the image."""
    _, objects = rendered
    for workload in by_kind(objects, "Deployment").values():
        spec = pod_spec(workload)
        empty_dirs = {v["name"] for v in spec["volumes"] if "emptyDir" in v}
        for container in spec["containers"]:
            mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
            assert mounts.get("/tmp") in empty_dirs, workload["metadata"]["name"]


def test_api_and_worker_run_the_same_image_with_the_image_commands(
    rendered: tuple[str, list[Doc]],
) -> None:
    _, objects = rendered
    deployments = by_kind(objects, "Deployment")
    (api,) = pod_spec(deployments["skyport-api"])["containers"]
    (worker,) = pod_spec(deployments["skyport-worker"])["containers"]
    assert api["image"] == worker["image"]
    assert re.fullmatch(r"[\w./-]+/skyport:[\w.-]+", api["image"]), api["image"]
    # The image's ENTRYPOINT is `skyport`; the API's args are the image's own CMD.
    instructions = dict(dockerfile_instructions())
    assert exec_form(instructions["ENTRYPOINT"]) == ["skyport"]
    assert api["args"] == exec_form(instructions["CMD"])
    assert worker["args"] == ["worker", "--beat"]
    assert "command" not in api and "command" not in worker


def test_api_probes_and_graceful_shutdown(rendered: tuple[str, list[Doc]]) -> None:
    _, objects = rendered
    deployment = by_kind(objects, "Deployment")["skyport-api"]
    spec = pod_spec(deployment)
    (container,) = spec["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["http"] == int(container["args"][container["args"].index("--port") + 1])
    assert container["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert container["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    pre_stop = container["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep"
    # The drain sleep plus a graceful shutdown must fit in the grace period.
    assert spec["terminationGracePeriodSeconds"] >= int(pre_stop[1]) + 30
    assert deployment["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    # Replicas belong to the HPA alone: a `replicas:` here would fight it on every apply.
    assert "replicas" not in deployment["spec"]


def test_worker_shuts_down_warm_and_is_probed_through_the_broker(
    rendered: tuple[str, list[Doc]],
) -> None:
    _, objects = rendered
    deployment = by_kind(objects, "Deployment")["skyport-worker"]
    spec = pod_spec(deployment)
    (container,) = spec["containers"]
    assert spec["terminationGracePeriodSeconds"] >= 60
    assert container["ports"] == [{"name": "metrics", "containerPort": 9100}]
    config = by_kind(objects, "ConfigMap")["skyport-config"]["data"]
    assert config["SKYPORT_WORKER_METRICS_PORT"] == "9100"
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == "9100"
    probe = " ".join(container["livenessProbe"]["exec"]["command"])
    assert "celery -A workers.celery_app:app inspect ping" in probe
    assert "replicas" not in deployment["spec"]


def test_every_deployment_has_an_hpa_and_a_pdb(rendered: tuple[str, list[Doc]]) -> None:
    _, objects = rendered
    deployments = by_kind(objects, "Deployment")
    hpas = by_kind(objects, "HorizontalPodAutoscaler").values()
    pdbs = by_kind(objects, "PodDisruptionBudget").values()
    for name, deployment in deployments.items():
        (hpa,) = [h for h in hpas if h["spec"]["scaleTargetRef"]["name"] == name]
        assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert [p for p in pdbs if selects(p["spec"]["selector"], labels)], name
        assert selects(deployment["spec"]["selector"], labels), name
    assert by_kind(objects, "HorizontalPodAutoscaler")["skyport-api"]["spec"]["minReplicas"] >= 2


def test_services_and_ingress_reach_the_api(rendered: tuple[str, list[Doc]]) -> None:
    _, objects = rendered
    services = by_kind(objects, "Service")
    api_pod = by_kind(objects, "Deployment")["skyport-api"]["spec"]["template"]
    service = services["skyport-api"]
    assert selects({"matchLabels": service["spec"]["selector"]}, api_pod["metadata"]["labels"])
    (container,) = api_pod["spec"]["containers"]
    port_names = {p["name"] for p in container["ports"]}
    for port in service["spec"]["ports"]:
        assert port["targetPort"] in port_names
    (ingress,) = by_kind(objects, "Ingress").values()
    for rule in ingress["spec"]["rules"]:
        for path in rule["http"]["paths"]:
            backend = path["backend"]["service"]
            assert backend["name"] in services
            assert backend["port"]["name"] in {
                p["name"] for p in services[backend["name"]]["spec"]["ports"]
            }


INTERNAL_PATHS = {"/metrics", "/readyz"}
"""Served to the cluster (Prometheus, the kubelet), never routed from the internet."""


def routed(path: str, rule: Doc) -> bool:
    """Whether an Ingress rule sends `path` on, by the Ingress path types' matching
    (Prefix: whole path elements; Exact: the path itself)."""
    for entry in rule["http"]["paths"]:
        if entry["pathType"] == "Exact" and path == entry["path"]:
            return True
        prefix = entry["path"].rstrip("/")
        if entry["pathType"] == "Prefix" and (path == prefix or path.startswith(f"{prefix}/")):
            return True
    return False


def test_ingress_routes_every_public_path_and_no_internal_one(
    rendered: tuple[str, list[Doc]],
) -> None:
    from services.api.app import create_app
    from services.gameplay.settings import Settings

    _, objects = rendered
    (ingress,) = by_kind(objects, "Ingress").values()
    app = create_app(Settings(redis_url=None, log_level="warning"))
    paths = {route.path.split("{")[0].rstrip("/") or "/" for route in app.router.routes}
    assert paths >= INTERNAL_PATHS
    for rule in ingress["spec"]["rules"]:
        assert {p for p in paths if not routed(p, rule)} == INTERNAL_PATHS


def test_ingress_keeps_websockets_and_event_streams_open(rendered: tuple[str, list[Doc]]) -> None:
    _, objects = rendered
    (ingress,) = by_kind(objects, "Ingress").values()
    annotations = ingress["metadata"]["annotations"]
    config = by_kind(objects, "ConfigMap")["skyport-config"]["data"]
    keepalive = float(config["SKYPORT_STREAM_KEEPALIVE"])
    assert annotations["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) > 4 * keepalive
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-send-timeout"]) > 4 * keepalive
    assert annotations["nginx.ingress.kubernetes.io/proxy-http-version"] == "1.1"
    assert ingress["spec"]["ingressClassName"] == "nginx"


def test_env_sources_exist(rendered: tuple[str, list[Doc]]) -> None:
    """ConfigMaps and Secrets the pods read exist - in the kustomization, or (production)
    in the overlay's secrets.example.yaml, which is applied out of band."""
    name, objects = rendered
    available = {("ConfigMap", n) for n in by_kind(objects, "ConfigMap")}
    available |= {("Secret", n) for n in by_kind(objects, "Secret")}
    if name == "production":
        available |= {
            ("Secret", d["metadata"]["name"])
            for d in load_docs(PRODUCTION / "secrets.example.yaml")
        }
    for deployment in by_kind(objects, "Deployment").values():
        for container in pod_spec(deployment)["containers"]:
            for source in container["envFrom"]:
                if "configMapRef" in source:
                    assert ("ConfigMap", source["configMapRef"]["name"]) in available
                else:
                    assert ("Secret", source["secretRef"]["name"]) in available
            for variable in container.get("env", []):
                ref = variable.get("valueFrom", {}).get("secretKeyRef")
                if ref:
                    assert ("Secret", ref["name"]) in available, ref


SKYPORT_NAMESPACE = {"kubernetes.io/metadata.name": "skyport"}
INGRESS_NAMESPACE = {"kubernetes.io/metadata.name": "ingress-nginx"}


def admits(peer: Doc, source: dict[str, str], namespace: dict[str, str]) -> bool:
    """Whether a NetworkPolicy `from` peer admits a pod with these labels in a namespace
    with these labels (the policy's own namespace is skyport's)."""
    if "ipBlock" in peer:
        return True  # an address range: any pod could be in it
    namespaces = peer.get("namespaceSelector")
    in_namespace = (
        selects(namespaces, namespace) if namespaces is not None else namespace == SKYPORT_NAMESPACE
    )
    return in_namespace and selects(peer.get("podSelector", {}), source)


def network_policy_check(objects: list[Doc]):
    policies = by_kind(objects, "NetworkPolicy").values()

    def allowed(
        source: dict[str, str],
        target: dict[str, str],
        port: int,
        namespace: dict[str, str] = SKYPORT_NAMESPACE,
    ) -> bool:
        selecting = [p for p in policies if selects(p["spec"]["podSelector"], target)]
        assert selecting, "every pod is under a default-deny policy"
        for policy in selecting:
            for rule in policy["spec"].get("ingress", []):
                ports = {p["port"] for p in rule.get("ports", [])}
                peers = rule.get("from")
                if (not ports or port in ports) and (
                    peers is None or any(admits(peer, source, namespace) for peer in peers)
                ):
                    return True
        return False

    return allowed


def workload_labels(objects: list[Doc]) -> dict[str, dict[str, str]]:
    return {
        w["metadata"]["name"]: w["spec"]["template"]["metadata"]["labels"]
        for w in objects
        if w["kind"] in WORKLOAD_KINDS
    }


def test_network_policies_let_only_api_and_worker_reach_redis() -> None:
    objects = render(BASE)
    pods = workload_labels(objects)
    assert set(pods) == {"skyport-api", "skyport-worker", "redis"}
    allowed = network_policy_check(objects)
    stranger = {"app.kubernetes.io/name": "something-else"}
    assert allowed(pods["skyport-api"], pods["redis"], 6379)
    assert allowed(pods["skyport-worker"], pods["redis"], 6379)
    assert not allowed(stranger, pods["redis"], 6379)
    assert not allowed(pods["redis"], pods["redis"], 6379)
    assert not allowed(pods["skyport-api"], pods["redis"], 6380)
    assert not allowed(pods["skyport-api"], pods["redis"], 6379, INGRESS_NAMESPACE)
    assert not allowed(stranger, pods["skyport-worker"], 8000)


def test_prometheus_reaches_the_workers_metrics_port_and_nothing_else() -> None:
    """The workers' pods carry prometheus.io/scrape annotations: a default-deny namespace
    must let the scraper in, on that port only."""
    objects = render(BASE)
    pods = workload_labels(objects)
    allowed = network_policy_check(objects)
    prometheus = {"app.kubernetes.io/name": "prometheus"}
    monitoring = {"kubernetes.io/metadata.name": "monitoring"}
    assert allowed(prometheus, pods["skyport-worker"], 9100, monitoring)
    assert not allowed(prometheus, pods["skyport-worker"], 9101, monitoring)
    assert not allowed(prometheus, pods["skyport-worker"], 9100)
    assert not allowed(prometheus, pods["redis"], 6379, monitoring)
    stranger = {"app.kubernetes.io/name": "something-else"}
    assert not allowed(stranger, pods["skyport-worker"], 9100)


@pytest.mark.parametrize("name", sorted(KUSTOMIZATIONS))
def test_only_the_ingress_controller_reaches_the_api(name: str) -> None:
    """Any other pod could send the API an X-Forwarded-For of its choosing."""
    objects = render(KUSTOMIZATIONS[name])
    pods = workload_labels(objects)
    allowed = network_policy_check(objects)
    controller = {"app.kubernetes.io/name": "ingress-nginx"}
    assert allowed(controller, pods["skyport-api"], 8000, INGRESS_NAMESPACE)
    assert not allowed(controller, pods["skyport-api"], 8001, INGRESS_NAMESPACE)
    stranger = {"app.kubernetes.io/name": "something-else"}
    assert not allowed(stranger, pods["skyport-api"], 8000)
    assert not allowed(pods["skyport-worker"], pods["skyport-api"], 8000)
    assert not allowed(stranger, pods["skyport-api"], 8000, {"kubernetes.io/metadata.name": "x"})
    ingress = next(iter(by_kind(objects, "Ingress").values()))
    assert ingress["spec"]["ingressClassName"] == "nginx", "the namespace above is ingress-nginx's"


@pytest.mark.parametrize("name", sorted(KUSTOMIZATIONS))
def test_forwarded_for_is_trusted_only_from_proxy_networks(name: str) -> None:
    config = by_kind(render(KUSTOMIZATIONS[name]), "ConfigMap")["skyport-config"]["data"]
    trusted = config["SKYPORT_FORWARDED_ALLOW_IPS"]
    proxies = TrustedProxies(trusted)
    assert not proxies.any_peer and proxies.networks, "a list of networks, not '*'"
    assert proxies.client("10.244.1.5", ["6.6.6.6, 203.0.113.7"]) == "203.0.113.7"


def test_base_redis_is_a_statefulset_with_aof_on_a_persistent_volume() -> None:
    objects = render(BASE)
    redis = by_kind(objects, "StatefulSet")["redis"]
    (container,) = pod_spec(redis)["containers"]
    args = container["args"]
    assert args[args.index("--appendonly") + 1] == "yes"
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    data_dir = args[args.index("--dir") + 1]
    (claim,) = redis["spec"]["volumeClaimTemplates"]
    assert {"name": claim["metadata"]["name"], "mountPath": data_dir} in container["volumeMounts"]
    assert claim["spec"]["resources"]["requests"]["storage"]
    # The headless Service the StatefulSet names, and the URL the pods are given.
    service = by_kind(objects, "Service")[redis["spec"]["serviceName"]]
    assert service["spec"]["clusterIP"] == "None"
    assert selects(
        {"matchLabels": service["spec"]["selector"]},
        redis["spec"]["template"]["metadata"]["labels"],
    )
    url = by_kind(objects, "ConfigMap")["skyport-config"]["data"]["SKYPORT_REDIS_URL"]
    port = service["spec"]["ports"][0]["port"]
    assert re.fullmatch(rf"redis://{service['metadata']['name']}:{port}/\d+", url), url


def test_base_secret_is_a_template_with_placeholders() -> None:
    (secret,) = load_docs(BASE / "secret.example.yaml")
    assert secret["stringData"]
    for value in secret["stringData"].values():
        assert "change-me" in value


def test_production_uses_managed_redis_and_out_of_band_secrets() -> None:
    objects = render(PRODUCTION)
    base = render(BASE)
    assert not by_kind(objects, "StatefulSet")
    assert "redis" not in by_kind(objects, "Service")
    assert not by_kind(objects, "Secret"), "the overlay must not apply the change-me template"
    assert "SKYPORT_REDIS_URL" not in by_kind(objects, "ConfigMap")["skyport-config"]["data"]
    examples = {d["metadata"]["name"]: d for d in load_docs(PRODUCTION / "secrets.example.yaml")}
    for deployment in by_kind(objects, "Deployment").values():
        (container,) = pod_spec(deployment)["containers"]
        (url,) = [v for v in container["env"] if v["name"] == "SKYPORT_REDIS_URL"]
        ref = url["valueFrom"]["secretKeyRef"]
        placeholder = examples[ref["name"]]["stringData"][ref["key"]]
        assert placeholder.startswith("rediss://") and "change-me" in placeholder
    for example in examples.values():
        assert all("change-me" in value for value in example["stringData"].values())
    # Bigger than the base.
    for name, hpa in by_kind(objects, "HorizontalPodAutoscaler").items():
        base_hpa = by_kind(base, "HorizontalPodAutoscaler")[name]
        assert hpa["spec"]["minReplicas"] > base_hpa["spec"]["minReplicas"]
        assert hpa["spec"]["maxReplicas"] > base_hpa["spec"]["maxReplicas"]
    (ingress,) = by_kind(objects, "Ingress").values()
    assert ingress["spec"]["tls"]
