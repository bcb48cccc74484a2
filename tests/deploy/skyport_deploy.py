"""Helpers of the deployment tests (tests/deploy): where the files are, how to read them,
and a small renderer for the subset of kustomize that k8s/ uses (so the overlay is checked
even where `kubectl` is not installed; where it is, the tests also compare the two).
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
K8S = REPO / "k8s"
BASE = K8S / "base"
PRODUCTION = K8S / "overlays" / "production"
KUSTOMIZATIONS = {"base": BASE, "production": PRODUCTION}

# The oldest Kubernetes minor the manifests must be valid for, and a newer one, so that an
# API removed in between would show up. Both schemas ship inside kubernetes-validate.
KUBERNETES_VERSIONS = ("1.30", "1.33")

# The kustomization fields the renderer below understands; the tests refuse any other.
KUSTOMIZE_FIELDS = {"apiVersion", "kind", "namespace", "labels", "resources", "images", "patches"}

Doc = dict[str, Any]


def load_docs(path: Path) -> list[Doc]:
    """Every non-empty YAML document of a file."""
    with path.open() as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def load_kustomization(directory: Path) -> Doc:
    (doc,) = load_docs(directory / "kustomization.yaml")
    return doc


def patch_paths(directory: Path) -> list[Path]:
    return [directory / patch["path"] for patch in load_kustomization(directory).get("patches", [])]


def identity(doc: Doc) -> tuple[str, str, str]:
    meta = doc.get("metadata", {})
    return doc["kind"], meta.get("namespace", ""), meta["name"]


# --- a renderer for the kustomize subset used in k8s/ -----------------------------------


def _merge(target: Any, patch: Any) -> Any:
    """Strategic merge as far as k8s/ needs it: maps merge key by key, a null deletes the
    key, lists of named items (containers, env, volumes...) merge by name, other lists are
    replaced."""
    if isinstance(target, dict) and isinstance(patch, dict):
        merged = dict(target)
        for key, value in patch.items():
            if value is None:
                merged.pop(key, None)
            elif key in merged:
                merged[key] = _merge(merged[key], value)
            else:
                merged[key] = copy.deepcopy(value)
        return merged
    if (
        isinstance(target, list)
        and isinstance(patch, list)
        and all(isinstance(item, dict) and "name" in item for item in target + patch)
    ):
        merged_list = [copy.deepcopy(item) for item in target]
        for item in patch:
            for index, existing in enumerate(merged_list):
                if existing["name"] == item["name"]:
                    merged_list[index] = _merge(existing, item)
                    break
            else:
                merged_list.append(copy.deepcopy(item))
        return merged_list
    return copy.deepcopy(patch)


def _containers(doc: Doc) -> list[Doc]:
    pod = doc.get("spec", {}).get("template", {}).get("spec", {})
    return pod.get("containers", []) + pod.get("initContainers", [])


def render(directory: Path) -> list[Doc]:
    """The objects `kubectl kustomize directory` prints, for the fields in KUSTOMIZE_FIELDS."""
    kustomization = load_kustomization(directory)
    unknown = set(kustomization) - KUSTOMIZE_FIELDS
    assert not unknown, f"{directory}: the test renderer does not know {sorted(unknown)}"
    objects: list[Doc] = []
    for entry in kustomization.get("resources", []):
        path = (directory / entry).resolve()
        objects += render(path) if path.is_dir() else load_docs(path)

    for patch_path in patch_paths(directory):
        for patch in load_docs(patch_path):
            kind, namespace, name = identity(patch)
            matches = [
                obj
                for obj in objects
                if obj["kind"] == kind
                and obj["metadata"]["name"] == name
                and namespace in ("", obj["metadata"].get("namespace", namespace))
            ]
            assert len(matches) == 1, f"{patch_path.name}: {kind}/{name} matches {len(matches)}"
            (target,) = matches
            if patch.get("$patch") == "delete":
                objects = [obj for obj in objects if obj is not target]
                continue
            body = {k: v for k, v in patch.items() if k not in ("apiVersion", "kind", "metadata")}
            extra_meta = {
                k: v for k, v in patch["metadata"].items() if k not in ("name", "namespace")
            }
            merged = _merge(target, {**body, "metadata": extra_meta})
            objects[objects.index(target)] = merged

    namespace = kustomization.get("namespace")
    for obj in objects:
        if namespace and obj["kind"] != "Namespace":
            obj["metadata"]["namespace"] = namespace
        for entry in kustomization.get("labels", []):
            assert entry.get("includeSelectors") is False and not entry.get("includeTemplates")
            obj["metadata"].setdefault("labels", {}).update(entry["pairs"])
        for image in kustomization.get("images", []):
            for container in _containers(obj):
                if container["image"].split(":")[0].split("@")[0] == image["name"]:
                    container["image"] = f"{image.get('newName', image['name'])}:{image['newTag']}"
    return objects


def kubectl_render(directory: Path) -> list[Doc] | None:
    """`kubectl kustomize directory` (or `kustomize build`), None if neither is installed."""
    if shutil.which("kubectl"):
        command = ["kubectl", "kustomize", str(directory)]
    elif shutil.which("kustomize"):
        command = ["kustomize", "build", str(directory)]
    else:
        return None
    out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, f"{' '.join(command)} failed:\n{out.stderr[-3000:]}"
    return [doc for doc in yaml.safe_load_all(out.stdout) if doc]


def by_kind(objects: list[Doc], kind: str) -> dict[str, Doc]:
    return {obj["metadata"]["name"]: obj for obj in objects if obj["kind"] == kind}


def pod_spec(workload: Doc) -> Doc:
    return workload["spec"]["template"]["spec"]


def selects(selector: Doc, labels: dict[str, str]) -> bool:
    """Whether a label selector (matchLabels / matchExpressions In) selects these labels."""
    for key, value in selector.get("matchLabels", {}).items():
        if labels.get(key) != value:
            return False
    for expression in selector.get("matchExpressions", []):
        assert expression["operator"] == "In", "the test only knows the In operator"
        if labels.get(expression["key"]) not in expression["values"]:
            return False
    return True


# --- the Dockerfile -----------------------------------------------------------------------


def dockerfile_instructions(path: Path = REPO / "Dockerfile") -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, line continuations joined, comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        full = pending + line
        pending = ""
        keyword, _, rest = full.partition(" ")
        instructions.append((keyword.upper(), rest.strip()))
    assert not pending, "Dockerfile ends inside a continued line"
    return instructions


def exec_form(arguments: str) -> list[str]:
    """The JSON array of an exec-form instruction (ENTRYPOINT, CMD, HEALTHCHECK ... CMD)."""
    value = json.loads(arguments)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), arguments
    return value


def healthcheck_command() -> tuple[dict[str, str], list[str]]:
    """The HEALTHCHECK's options and exec-form command."""
    (arguments,) = [args for keyword, args in dockerfile_instructions() if keyword == "HEALTHCHECK"]
    options_part, _, command = arguments.partition(" CMD ")
    options = dict(re.findall(r"--([a-z-]+)=(\S+)", options_part))
    return options, exec_form(command)


def image_env() -> dict[str, str]:
    """ENV of the last stage (the runtime image), `KEY=value` forms."""
    stages: list[list[tuple[str, str]]] = [[]]
    for keyword, arguments in dockerfile_instructions():
        if keyword == "FROM":
            stages.append([])
        stages[-1].append((keyword, arguments))
    env: dict[str, str] = {}
    for keyword, arguments in stages[-1]:
        if keyword == "ENV":
            for key, value in re.findall(r'(\w+)=("[^"]*"|\S+)', arguments):
                env[key] = value.strip('"')
    return env
