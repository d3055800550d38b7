"""Test fixture: a Triton submission with AMD-only inline assembly
(v_rcp_f32_e32, as the competition's Triton submissions used); on a
non-AMD device it must fail with a one-line cause naming the instruction."""
import torch
import triton
import triton.language as tl


@triton.jit
def _rcp_kernel(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.inline_asm_elementwise("v_rcp_f32_e32 $0, $1", "=v, v", [x],
                                  dtype=tl.float32, is_pure=True, pack=1)
    tl.store(Y + offs, y)


def custom_kernel(data):
    q = data[0]
    x = torch.ones(16, dtype=torch.float32, device=q.device)
    y = torch.empty_like(x)
    _rcp_kernel[(1,)](x, y, N=16)
    return torch.zeros((q.shape[0], 16, 512), dtype=torch.bfloat16, device=q.device) + y[0]
