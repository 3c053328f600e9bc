"""The template semantic layer: jinja2 template facts and Python call-site facts (environments, compile and render sites)."""
