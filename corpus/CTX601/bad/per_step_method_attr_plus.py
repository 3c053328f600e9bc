# expect: 21 CTX601 running loss on the trainer adds the KL tensor itself; every step's graph stays reachable
import torch


class DistillTrainer:
    def __init__(self, student, teacher, optimizer) -> None:
        self.student = student
        self.teacher = teacher
        self.optimizer = optimizer
        self.running_loss = 0.0
        self.n = 0

    def train_step(self, batch) -> None:
        with torch.no_grad():
            t_logits = self.teacher(**batch).logits
        s_logits = self.student(**batch).logits
        kl = torch.nn.functional.kl_div(s_logits.log_softmax(-1), t_logits.softmax(-1), reduction="batchmean")
        kl.backward()
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.running_loss = self.running_loss + kl
        self.n += 1

    def mean_loss(self) -> float:
        return float(self.running_loss) / max(self.n, 1)
