# expect: none
"""speechbrain's location-aware attention: the encoder projection and the previous
step's attention are per-sequence state, kept across decoder steps and dropped by
`reset()`, which the decoder (another module) calls before every sequence."""
import torch
from torch import nn


class LocationAwareAttention(nn.Module):
    def __init__(self, enc_dim: int, dec_dim: int, attn_dim: int):
        super().__init__()
        self.mlp_enc = nn.Linear(enc_dim, attn_dim)
        self.mlp_dec = nn.Linear(dec_dim, attn_dim)
        self.mlp_attn = nn.Linear(attn_dim, 1, bias=False)
        self.reset()

    def reset(self):
        self.precomputed_enc_h = None
        self.prev_attn = None

    def forward(self, enc_states: torch.Tensor, dec_states: torch.Tensor) -> torch.Tensor:
        if self.precomputed_enc_h is None:
            self.precomputed_enc_h = self.mlp_enc(enc_states)
        dec_h = self.mlp_dec(dec_states.unsqueeze(1))
        attn = self.mlp_attn(torch.tanh(self.precomputed_enc_h + dec_h)).squeeze(-1).softmax(-1)
        self.prev_attn = attn
        return torch.bmm(attn.unsqueeze(1), enc_states).squeeze(1)
