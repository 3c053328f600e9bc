# expect: 14 CTX406
import torch.nn as nn


class ProbedDecoderLayer(nn.Module):
    def __init__(self, layer: nn.Module, probe: nn.Module):
        super().__init__()
        self.layer = layer
        self.probe = probe

    def forward(self, hidden_states, attention_mask=None):
        hidden_states = self.layer(hidden_states, attention_mask=attention_mask)[0]
        # kept "for debugging": holds the last batch's activations and their graph
        self.hidden = hidden_states
        return (hidden_states + self.probe(hidden_states),)
