# expect: 26 CTX303
# expect: 30 CTX303
# expect: 34 CTX303
"""Format strings from a web request, from environment-loaded settings, and a
parameter that this module's own caller fills with request data."""
from fastapi import FastAPI
from flask import Flask, request
from pydantic_settings import BaseSettings

app = Flask(__name__)
api = FastAPI()


class Settings(BaseSettings):
    # overridden by the SYSTEM_PROMPT environment variable of the deployment
    system_prompt: str = "You are helping {user}."


settings = Settings()


@app.post("/preview")
def preview():
    template = request.get_json()["template"]
    # {user.__class__.__init__.__globals__} reads module globals
    return template.format(user=request.user)


def system_message(user) -> str:
    return settings.system_prompt.format(user=user)


def _render(template: str, user) -> str:
    return template.format_map({"user": user})


@api.post("/render")
def render(body: dict, user=None) -> str:
    return _render(body["template"], user)
