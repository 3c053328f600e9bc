# expect: none
import logging

from .context import current_user

log = logging.getLogger(__name__)


def configure_content(user_id: str, files: dict, regenerate: bool) -> int:
    log.info("indexing for %s (requested by %s)", user_id, current_user.get())
    return sum(1 for text in files.values() if regenerate or text)
