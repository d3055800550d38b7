"""Test fixture: custom_kernel returns the wrong shape (576 wide)."""
import torch
def custom_kernel(data):
    q = data[0]
    return torch.zeros((q.shape[0], 16, 576), dtype=torch.bfloat16, device=q.device)
