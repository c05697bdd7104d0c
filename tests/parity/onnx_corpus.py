"""Writes the ONNX corpus of tests/data/onnx/corpus: real models exported by
`torch.onnx.export` (opset 17, the TorchScript exporter, constant folding on, random
weights drawn into every parameter, eval mode) from torchvision and from transformers (configs built here, no hub
download), then made weight-free: every float initializer keeps its name, type and dims
but loses its data, so that the gzipped files stay small; so do integer tensors over 64 elements (index tables),
whose values no shape depends on (tests/parity/onnx_diff.py fills them with zeros again before aidge_onnx reads them; memplan never reads weights).
Integer initializers (shapes, axes, indices) keep their values: they decide shapes.

Run outside CI, in a venv of its own (torch is about 3 GB):
    python3 -m venv /work/venvs/onnx/venv
    /work/venvs/onnx/venv/bin/pip install torch==2.5.1 torchvision==0.20.1 \
        transformers==4.46.3 onnx==1.17.0
    nice /work/venvs/onnx/venv/bin/python tests/parity/onnx_corpus.py [NAME ...]
Writes tests/data/onnx/corpus/NAME.onnx.gz and appends nothing else: the provenance is
tests/data/onnx/corpus/README.md (versions above) and this file.
"""

import gzip
import io
import math
import pathlib
import sys
import warnings

import onnx
import torch

warnings.filterwarnings("ignore")
OUT = pathlib.Path(__file__).resolve().parents[1] / "data" / "onnx" / "corpus"
IMAGE = (1, 3, 224, 224)
FLOATS = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.DOUBLE,
          onnx.TensorProto.BFLOAT16}


def tv(name, size=224, **kw):
    def make():
        import torchvision
        return torchvision.models.get_model(name, weights=None, **kw), (torch.randn(1, 3, size, size),)
    return make


def tv_seg(name):
    def make():
        import torchvision

        class Out(torch.nn.Module):
            def __init__(self, m):
                super().__init__()
                self.m = m

            def forward(self, x):
                return self.m(x)["out"]
        m = torchvision.models.get_model(name, weights=None, weights_backbone=None,
                                         num_classes=21, aux_loss=False)
        return Out(m), (torch.randn(*IMAGE),)
    return make


def fpn_backbone(arch):
    def make():
        from torchvision.models.detection.backbone_utils import resnet_fpn_backbone

        class Out(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.m = resnet_fpn_backbone(backbone_name=arch, weights=None,
                                             trainable_layers=5)

            def forward(self, x):
                return tuple(self.m(x).values())
        return Out(), (torch.randn(*IMAGE),)
    return make


def ssdlite_backbone():
    import torchvision
    m = torchvision.models.detection.ssdlite320_mobilenet_v3_large(
        weights=None, weights_backbone=None)

    class Out(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.b = m.backbone

        def forward(self, x):
            return tuple(self.b(x).values())
    return Out(), (torch.randn(1, 3, 320, 320),)


SEQ = 16


def hf(kind):
    def make():
        import transformers as t
        ids = torch.randint(0, 100, (1, SEQ))
        mask = torch.ones(1, SEQ, dtype=torch.long)
        small = dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=512)
        if kind == "bert":
            return t.BertModel(t.BertConfig(vocab_size=1000, **small)), (ids, mask)
        if kind == "distilbert":
            return t.DistilBertModel(t.DistilBertConfig(vocab_size=1000, dim=128, n_layers=2,
                                                        n_heads=4, hidden_dim=512)), (ids, mask)
        if kind == "roberta":
            return t.RobertaModel(t.RobertaConfig(vocab_size=1000, **small)), (ids, mask)
        if kind == "albert":
            return t.AlbertModel(t.AlbertConfig(vocab_size=1000, embedding_size=64,
                                                **small)), (ids, mask)
        if kind == "gpt2":
            return t.GPT2Model(t.GPT2Config(vocab_size=1000, n_embd=128, n_layer=2, n_head=4,
                                            n_positions=64, use_cache=False)), (ids,)
        if kind == "vit":
            return t.ViTModel(t.ViTConfig(image_size=64, patch_size=16, **small)), \
                (torch.randn(1, 3, 64, 64),)
        if kind == "whisper_encoder":
            cfg = t.WhisperConfig(d_model=128, encoder_layers=2, encoder_attention_heads=4,
                                  encoder_ffn_dim=512, decoder_layers=2,
                                  decoder_attention_heads=4, decoder_ffn_dim=512,
                                  num_mel_bins=80,
                                  max_source_positions=100)
            return t.WhisperModel(cfg).get_encoder(), (torch.randn(1, 80, 200),)
        raise ValueError(kind)
    return make


MODELS = {
    # torchvision classification, one or two of each family
    "alexnet": tv("alexnet"), "vgg11": tv("vgg11"), "vgg11_bn": tv("vgg11_bn"),
    "resnet18": tv("resnet18"), "resnet34": tv("resnet34"), "resnet50": tv("resnet50"),
    "resnext50_32x4d": tv("resnext50_32x4d"), "wide_resnet50_2": tv("wide_resnet50_2"),
    "densenet121": tv("densenet121"), "squeezenet1_0": tv("squeezenet1_0"),
    "squeezenet1_1": tv("squeezenet1_1"), "googlenet": tv("googlenet", aux_logits=False,
                                                          init_weights=True),
    "inception_v3": tv("inception_v3", 299, aux_logits=False, init_weights=True),
    "mnasnet0_5": tv("mnasnet0_5"), "mnasnet0_75": tv("mnasnet0_75"),
    "mnasnet1_0": tv("mnasnet1_0"), "shufflenet_v2_x1_5": tv("shufflenet_v2_x1_5"),
    "shufflenet_v2_x0_5": tv("shufflenet_v2_x0_5"),
    "shufflenet_v2_x1_0": tv("shufflenet_v2_x1_0"),
    "mobilenet_v2": tv("mobilenet_v2"), "mobilenet_v3_small": tv("mobilenet_v3_small"),
    "mobilenet_v3_large": tv("mobilenet_v3_large"),
    "efficientnet_b0": tv("efficientnet_b0"), "efficientnet_b1": tv("efficientnet_b1"), "efficientnet_v2_s": tv("efficientnet_v2_s"),
    "regnet_x_400mf": tv("regnet_x_400mf"), "regnet_y_400mf": tv("regnet_y_400mf"),
    "regnet_x_800mf": tv("regnet_x_800mf"),
    "convnext_tiny": tv("convnext_tiny"), "vit_b_16": tv("vit_b_16"),
    "swin_t": tv("swin_t"), "maxvit_t": tv("maxvit_t"),
    # segmentation
    "fcn_resnet50": tv_seg("fcn_resnet50"),
    "deeplabv3_mobilenet_v3_large": tv_seg("deeplabv3_mobilenet_v3_large"),
    "lraspp_mobilenet_v3_large": tv_seg("lraspp_mobilenet_v3_large"),
    # detection backbones
    "fpn_resnet18": fpn_backbone("resnet18"), "ssdlite_backbone": ssdlite_backbone,
    # transformers, random weights, configs built here
    "bert": hf("bert"), "distilbert": hf("distilbert"), "roberta": hf("roberta"),
    "albert": hf("albert"), "gpt2": hf("gpt2"), "hf_vit": hf("vit"),
    "whisper_encoder": hf("whisper_encoder"),
}


def weight_free(model):
    """Drops the data of every float initializer and of every other one over 64
    elements (index tables), keeping names, types and dims: memplan reads the values
    of small integer tensors only."""
    for t in model.graph.initializer:
        if t.data_type in FLOATS or math.prod(t.dims) > 64:
            t.ClearField("raw_data")
            for f in ("float_data", "double_data", "int32_data", "int64_data"):
                t.ClearField(f)
    return model


def export(name):
    torch.manual_seed(0)
    model, args = MODELS[name]()
    model.eval()
    # Random values in every parameter: left at their initial values, LayerNorm's ones
    # and zeros would be identical tensors, which the exporter shares through Identity
    # nodes (a trained model has none).
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
    buf = io.BytesIO()
    names = ["input_ids", "attention_mask"][:len(args)] if args[0].dtype == torch.long \
        else ["input"]
    # (with gradients on: under no_grad, torch's multi-head attention takes a fast
    # path the exporter cannot write)
    torch.onnx.export(model, args, buf, opset_version=17, do_constant_folding=True,
                      input_names=names)
    m = weight_free(onnx.load_from_string(buf.getvalue()))
    data = m.SerializeToString()
    with gzip.GzipFile(OUT / f"{name}.onnx.gz", "wb", mtime=0) as f:
        f.write(data)
    return len(data)


def main(argv):
    OUT.mkdir(parents=True, exist_ok=True)
    for name in argv[1:] or list(MODELS):
        try:
            size = export(name)
            print(f"{name}: {size} bytes", flush=True)
        except Exception as e:  # a family torch cannot export is reported, not fatal
            print(f"FAIL {name}: {type(e).__name__}: {str(e)[:200]}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
