"""Every SKYPORT_ variable the deployment files set is a field of the one settings object
(services/gameplay/settings.py), and the values they set are accepted by it - a misspelt name
would otherwise be silently ignored and the service would run on a default."""

from __future__ import annotations

import secrets

import pytest
import yaml
from pydantic import ValidationError
from skyport_deploy import BASE, KUSTOMIZATIONS, PRODUCTION, REPO, by_kind, load_docs, render

from services.gameplay.settings import Settings

PREFIX = "SKYPORT_"


def known_variables() -> set[str]:
    return {PREFIX + name.upper() for name in Settings.model_fields}


def deployment_variables() -> dict[str, dict[str, str]]:
    """Where each file sets which SKYPORT_ variables (value, or '' where it is a reference)."""
    found: dict[str, dict[str, str]] = {}
    for name, directory in KUSTOMIZATIONS.items():
        objects = render(directory)
        for config_map in by_kind(objects, "ConfigMap").values():
            found[f"{name}: ConfigMap {config_map['metadata']['name']}"] = config_map["data"]
        for deployment in by_kind(objects, "Deployment").values():
            for container in deployment["spec"]["template"]["spec"]["containers"]:
                found[f"{name}: {container['name']} env"] = {
                    v["name"]: v.get("value", "") for v in container.get("env", [])
                }
    for path in (BASE / "secret.example.yaml", PRODUCTION / "secrets.example.yaml"):
        for secret in load_docs(path):
            found[f"{path.relative_to(REPO)}: {secret['metadata']['name']}"] = secret["stringData"]
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text())
    for service in ("api", "worker"):
        found[f"docker-compose.yml: {service}"] = {
            k: str(v) for k, v in compose["services"][service]["environment"].items()
        }
    return found


@pytest.mark.parametrize("where", sorted(deployment_variables()))
def test_every_variable_set_is_a_setting(where: str) -> None:
    variables = deployment_variables()[where]
    unknown = {k for k in variables if k.startswith(PREFIX)} - known_variables()
    assert not unknown, (
        f"{where} sets {sorted(unknown)}, which services/gameplay/settings.py ignores"
    )


SECRETS = ("SKYPORT_API_KEYS", "SKYPORT_WEBHOOK_SECRET")
"""What an operator must fill in: the templates hold placeholders, refused at start."""


def filled_in(template: dict[str, str]) -> dict[str, str]:
    """A template's values with its secrets made, as the README's commands make them."""
    return {k: secrets.token_hex(32) if k in SECRETS else v for k, v in template.items()}


@pytest.mark.parametrize(
    "path", [BASE / "secret.example.yaml", PRODUCTION / "secrets.example.yaml"]
)
def test_a_template_s_placeholder_secrets_stop_start_up(
    monkeypatch: pytest.MonkeyPatch, path
) -> None:
    templates = [s["stringData"] for s in load_docs(path)]
    assert any(set(SECRETS) & set(template) for template in templates)
    for template in templates:
        for key, value in template.items():
            monkeypatch.setenv(key, value)
    with pytest.raises(ValidationError, match="change-me"):
        Settings()


def test_the_base_configuration_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    config = by_kind(render(BASE), "ConfigMap")["skyport-config"]["data"]
    (secret,) = load_docs(BASE / "secret.example.yaml")
    for key, value in {**config, **filled_in(secret["stringData"])}.items():
        monkeypatch.setenv(key, value)
    settings = Settings()
    assert settings.redis_url == config["SKYPORT_REDIS_URL"]
    assert settings.log_json is True
    assert not settings.embedded


def test_the_production_configuration_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    config = by_kind(render(PRODUCTION), "ConfigMap")["skyport-config"]["data"]
    templates = [s["stringData"] for s in load_docs(PRODUCTION / "secrets.example.yaml")]
    for source in (config, *map(filled_in, templates)):
        for key, value in source.items():
            monkeypatch.setenv(key, value)
    settings = Settings()
    assert settings.redis_url and settings.redis_url.startswith("rediss://")
