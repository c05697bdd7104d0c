"""Writes tests/data/recipes/cortexm/models: small CNNs of families the torchvision corpus
does not give the Cortex-M int8 check (tests/parity/cortexm_qemu.py) in a form
aidge-quantization 0.10.1 takes and a Cortex-M7 holds, written here as torch modules:

- `mobilenet_v1_025`: MobileNet-v1 (Howard et al. 2017) at width 0.25: a strided 3×3
  convolution, then 13 depthwise-separable blocks (3×3 depthwise convolution, BatchNorm,
  ReLU, 1×1 pointwise convolution, BatchNorm, ReLU; strides as the paper's), global
  average pooling, a 1000-way Linear. ReLU, not ReLU6 (the quantizer refuses Clip), and
  no residual Add: the depthwise family without the Add whose Cortex-M plan memplan
  only estimates.
- `vgg_s`: a VGG-style plain network: three stages of 3×3 convolutions with ReLU (16;
  32; 64, 64 channels), each closed by a 2×2 MaxPool, then Flatten, Linear 1024→256,
  ReLU, Linear 256→1000.

Exported by `torch.onnx.export` (opset 17, the TorchScript exporter, constant folding on:
BatchNorm folded into the convolutions, eval mode) at 1×3×32×32, every parameter drawn
from N(0, 0.1) (torch seed 0; BatchNorm's scale and shift too, so no two folded biases
are equal tensors, which the exporter would share and aidge-quantization then rename
twice), then made weight-free as the corpus is (onnx_corpus.weight_free);
cortexm_qemu.py gives them seeded random weights again (He-scaled) before the real
export.

Run outside CI, in the venv of tests/parity/onnx_families.py (pinned versions of this
run: torch 2.15.0, onnx 1.23.2):
    nice /tmp/tv/bin/python tests/parity/cortexm_models.py [NAME ...]
"""

import gzip
import io
import pathlib
import sys
import warnings

import onnx
import torch
from torch import nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from onnx_corpus import weight_free  # noqa: E402

warnings.filterwarnings("ignore")
OUT = pathlib.Path(__file__).resolve().parents[1] / "data" / "recipes" / "cortexm" / "models"
SIZE = 32


def conv_bn_relu(cin, cout, kernel, stride, groups=1):
    return [nn.Conv2d(cin, cout, kernel, stride, kernel // 2, groups=groups, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU()]


def mobilenet_v1(width=0.25, classes=1000):
    c = lambda n: int(n * width)  # noqa: E731
    layers = conv_bn_relu(3, c(32), 3, 2)
    # (output channels, stride) of the 13 depthwise-separable blocks
    blocks = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] \
        + [(512, 1)] * 5 + [(1024, 2), (1024, 1)]
    cin = c(32)
    for cout, stride in blocks:
        layers += conv_bn_relu(cin, cin, 3, stride, groups=cin)
        layers += conv_bn_relu(cin, c(cout), 1, 1)
        cin = c(cout)
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, classes)]
    return nn.Sequential(*layers)


def vgg_s(classes=1000):
    layers, cin = [], 3
    for stage in ([16], [32], [64, 64]):
        for cout in stage:
            layers += [nn.Conv2d(cin, cout, 3, 1, 1), nn.ReLU()]
            cin = cout
        layers.append(nn.MaxPool2d(2))
    return nn.Sequential(*layers, nn.Flatten(), nn.Linear(cin * (SIZE // 8) ** 2, 256),
                         nn.ReLU(), nn.Linear(256, classes))


MODELS = {"mobilenet_v1_025": mobilenet_v1, "vgg_s": vgg_s}


def export(name):
    torch.manual_seed(0)
    model = MODELS[name]()
    model.eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.1)
    buf = io.BytesIO()
    torch.onnx.export(model, (torch.randn(1, 3, SIZE, SIZE),), buf, opset_version=17,
                      do_constant_folding=True, input_names=["input"], dynamo=False)
    m = weight_free(onnx.load_from_string(buf.getvalue()))
    data = m.SerializeToString()
    with gzip.GzipFile(OUT / f"{name}.onnx.gz", "wb", mtime=0) as f:
        f.write(data)
    return len(data)


def main(argv):
    OUT.mkdir(parents=True, exist_ok=True)
    for name in argv[1:] or list(MODELS):
        print(f"{name}: {export(name):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
