"""Writes a torchvision CNN with random weights as ONNX, for scripts/cortexm/run.py.

Usage: python torchvision_onnx.py NAME SIZE OUT.onnx  (in a venv with torch 2.5.1 and
torchvision 0.20.1). Weights: torchvision's own initialisation under torch.manual_seed(0);
nothing is downloaded. GoogLeNet without its training-only auxiliary heads.
"""

import sys

import torch
import torchvision

name, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
torch.manual_seed(0)
kwargs = {"aux_logits": False, "init_weights": True} if name == "googlenet" else {}
model = getattr(torchvision.models, name)(weights=None, **kwargs).eval()
torch.onnx.export(model, torch.randn(1, 3, size, size), out, opset_version=13,
                  do_constant_folding=True, input_names=["input"], output_names=["output"])
