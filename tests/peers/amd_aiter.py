"""Test fixture: a submission calling AMD's aiter (as competition submissions
do); where aiter is absent it must fail with a one-line cause."""
import torch
from aiter.mla import mla_decode_fwd  # noqa: F401


def custom_kernel(data):
    return torch.zeros(1)
