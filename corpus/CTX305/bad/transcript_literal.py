# expect: 16 CTX305
"""Support transcript rendered as HTML from a literal template."""
from jinja2 import Template

TRANSCRIPT_HTML = """
<div class="transcript">
{% for turn in turns %}
  <p class="{{ turn.role }}"><b>{{ turn.role }}</b>: {{ turn.content }}</p>
{% endfor %}
</div>
"""


def render_transcript(turns: list[dict]) -> str:
    # turn.content is model output and may contain <script>
    tmpl = Template(TRANSCRIPT_HTML)
    return tmpl.render(turns=turns)
