# expect: 20 CTX601
import torch.nn.functional as F


class DistillTrainer:
    def __init__(self, student, teacher, optimizer):
        self.student = student
        self.teacher = teacher
        self.optimizer = optimizer
        self.total_kl = 0.0

    def fit(self, loader, temperature: float = 2.0):
        for batch in loader:
            student_logits = self.student(batch["input_ids"])
            teacher_logits = self.teacher(batch["input_ids"]).detach()
            loss = F.kl_div(student_logits.log_softmax(-1), (teacher_logits / temperature).softmax(-1))
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            self.total_kl += F.kl_div(student_logits.log_softmax(-1), teacher_logits.softmax(-1))
