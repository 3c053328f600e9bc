# expect: 22 CTX505
"""Vision embeddings are shared per (processor, image hash) and counted under that
pair, but the release side counts down under the image hash alone: the tuple key is
never found, the count never drops, and the embedding is never evicted."""
import torch


class VisionEmbeddingPool:
    def __init__(self, encoder):
        self.encoder = encoder
        self.embeddings: dict[tuple[str, str], torch.Tensor] = {}
        self.users: dict[tuple[str, str], int] = {}

    def checkout(self, processor_id: str, image_hash: str, pixels: torch.Tensor) -> torch.Tensor:
        slot = (processor_id, image_hash)
        if slot not in self.embeddings:
            self.embeddings[slot] = self.encoder(pixels)
        self.users[slot] = self.users.get(slot, 0) + 1
        return self.embeddings[slot]

    def checkin(self, processor_id: str, image_hash: str) -> None:
        if image_hash not in self.users:
            return
        self.users[image_hash] -= 1
        if self.users[image_hash] == 0:
            del self.users[image_hash]
