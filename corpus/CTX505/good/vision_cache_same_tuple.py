# expect: none
"""Both sides count under the same (processor, image hash) pair, spelled once as a
local and once inline."""
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
        if (processor_id, image_hash) not in self.users:
            return
        self.users[(processor_id, image_hash)] -= 1
        if self.users[(processor_id, image_hash)] == 0:
            del self.users[(processor_id, image_hash)]
            del self.embeddings[(processor_id, image_hash)]
