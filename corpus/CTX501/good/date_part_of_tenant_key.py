# expect: none
"""The date helper returns only a part of the buffer key; the key builder that uses it
adds the organization itself, so the key is scoped where it is built (gpustack).
"""
import threading
from datetime import datetime, timezone
from typing import Optional

from pydantic import BaseModel

_lock = threading.Lock()
gateway_metrics_buffer: dict = {}


class UsageMetric(BaseModel):
    model: str
    input_token: int = 0
    completed_at: Optional[int] = None
    user_id: Optional[int] = None
    model_id: Optional[int] = None
    organization_id: Optional[str] = None


def _to_utc(ms: Optional[int]) -> Optional[datetime]:
    if ms is None or ms <= 0:
        return None
    return datetime.fromtimestamp(ms / 1000.0, tz=timezone.utc).replace(tzinfo=None)


def _resolve_metric_datetime(metric: UsageMetric):
    dt = _to_utc(metric.completed_at) or datetime.now(timezone.utc).replace(tzinfo=None)
    bucket_date = dt.replace(tzinfo=timezone.utc).date()
    return bucket_date, dt


def _make_buffer_key(metric: UsageMetric) -> str:
    metric_date, _ = _resolve_metric_datetime(metric)
    return ".".join(str(part or "") for part in [metric.model_id, metric.model, metric.user_id,
                                                 metric.organization_id, metric_date.isoformat()])


def accumulate(incoming: UsageMetric) -> None:
    with _lock:
        metric = incoming
        key = _make_buffer_key(metric)
        existing = gateway_metrics_buffer.get(key)
        if existing is None:
            gateway_metrics_buffer[key] = metric
        else:
            existing.input_token += metric.input_token
