"""Writes tests/data/onnx/families: real models of families the corpus of
tests/parity/onnx_corpus.py does not hold, exported by `torch.onnx.export` (opset 17, the
TorchScript exporter, constant folding on, random weights, eval mode) from transformers
configs built here (no hub download) and from small modules of our own, then made
weight-free as the corpus is (onnx_corpus.weight_free). Each is small (hidden sizes of
32 to 128, short sequences, 64×64 images) so that tests/parity/onnx_diff.py checks them
against Aidge 0.10.1 within CI's budget.

The models named `*_dynamo` are exported by torch's dynamo exporter instead (opset 18,
its graph optimizer off). With `--dynamo`, every model (but those) is written to
tests/data/onnx/families/dynamo as torch's default exporter writes it (dynamo, opset 18,
its optimizer on): llama and qwen2 export only so.

Run outside CI, in a venv of its own (pinned versions of this run):
    python3 -m venv /tmp/tv && /tmp/tv/bin/pip install torch==2.15.0 \
        transformers==5.25.0 onnx==1.23.2 onnxscript==0.7.2
    nice /tmp/tv/bin/python tests/parity/onnx_families.py [--dynamo] [NAME ...]
Writes tests/data/onnx/families/[dynamo/]NAME.onnx.gz; the list of what each is, and what Aidge
0.10.1 does with it, is tests/data/onnx/families/README.md.
"""

import gzip
import io
import pathlib
import sys
import warnings

import onnx
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from onnx_corpus import weight_free  # noqa: E402

warnings.filterwarnings("ignore")
OUT = pathlib.Path(__file__).resolve().parents[1] / "data" / "onnx" / "families"
SEQ = 16


class Hidden(torch.nn.Module):
    """A transformers model's last hidden state (or its first output)."""

    def __init__(self, m, key="inputs_embeds"):
        super().__init__()
        self.m, self.key = m, key

    def forward(self, x):
        out = self.m(**{self.key: x})
        return out[0] if isinstance(out, tuple) else out.last_hidden_state


def hf(kind):
    def make():
        import transformers as t
        small = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=128)
        emb = (torch.randn(1, SEQ, 64),)
        img = (torch.randn(1, 3, 64, 64),)
        if kind == "t5_encoder":
            cfg = t.T5Config(vocab_size=100, d_model=64, d_kv=16, d_ff=128, num_layers=2,
                             num_heads=4)
            return Hidden(t.T5EncoderModel(cfg)), emb
        if kind == "llama":
            cfg = t.LlamaConfig(vocab_size=100, max_position_embeddings=64, **small,
                                num_key_value_heads=2, use_cache=False)
            return Hidden(t.LlamaModel(cfg)), emb
        if kind == "qwen2":
            cfg = t.Qwen2Config(vocab_size=100, max_position_embeddings=64, **small,
                                num_key_value_heads=2, use_cache=False)
            return Hidden(t.Qwen2Model(cfg)), emb
        if kind == "electra":
            return Hidden(t.ElectraModel(t.ElectraConfig(vocab_size=100, embedding_size=64,
                                                         **small))), emb
        if kind == "mpnet":
            return Hidden(t.MPNetModel(t.MPNetConfig(vocab_size=100, **small))), emb
        if kind == "deberta_v2":
            return Hidden(t.DebertaV2Model(t.DebertaV2Config(vocab_size=100, **small))), emb
        if kind == "bart_encoder":
            cfg = t.BartConfig(vocab_size=100, d_model=64, encoder_layers=2,
                               encoder_attention_heads=4, encoder_ffn_dim=128,
                               decoder_layers=1, decoder_attention_heads=4,
                               decoder_ffn_dim=128, max_position_embeddings=64)
            return Hidden(t.BartModel(cfg).get_encoder()), emb
        if kind == "opt":
            cfg = t.OPTConfig(vocab_size=100, hidden_size=64, num_hidden_layers=2,
                              num_attention_heads=4, ffn_dim=128, word_embed_proj_dim=64,
                              max_position_embeddings=64, use_cache=False)
            return Hidden(t.OPTModel(cfg)), emb
        if kind == "levit":
            cfg = t.LevitConfig(image_size=64, hidden_sizes=[32, 48, 64], num_attention_heads=[1, 2, 2],
                                depths=[1, 1, 1], key_dim=[8, 8, 8], patch_size=16)
            return Hidden(t.LevitModel(cfg), "pixel_values"), img
        if kind == "deit":
            return Hidden(t.DeiTModel(t.DeiTConfig(image_size=64, patch_size=16, **small)),
                          "pixel_values"), img
        if kind == "beit":
            return Hidden(t.BeitModel(t.BeitConfig(image_size=64, patch_size=16, **small)),
                          "pixel_values"), img
        if kind == "clip_vision":
            return Hidden(t.CLIPVisionModel(t.CLIPVisionConfig(image_size=64, patch_size=16,
                                                               **small)), "pixel_values"), img
        if kind == "segformer":
            cfg = t.SegformerConfig(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
                                    hidden_sizes=[16, 32], num_attention_heads=[1, 2],
                                    decoder_hidden_size=32)
            return Hidden(t.SegformerModel(cfg), "pixel_values"), img
        if kind == "poolformer":
            cfg = t.PoolFormerConfig(num_encoder_blocks=2, depths=[1, 1], hidden_sizes=[16, 32],
                                     patch_sizes=[7, 3], strides=[4, 2], padding=[2, 1])
            return Hidden(t.PoolFormerModel(cfg), "pixel_values"), img
        if kind == "mobilevit":
            cfg = t.MobileViTConfig(image_size=64, hidden_sizes=[32, 48, 64],
                                    neck_hidden_sizes=[8, 8, 16, 16, 24, 32, 64])
            return Hidden(t.MobileViTModel(cfg), "pixel_values"), img
        if kind == "hf_resnet":
            cfg = t.ResNetConfig(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1])
            return Hidden(t.ResNetModel(cfg), "pixel_values"), img
        if kind == "hf_convnext":
            cfg = t.ConvNextConfig(hidden_sizes=[16, 32], depths=[1, 1], num_stages=2)
            return Hidden(t.ConvNextModel(cfg), "pixel_values"), img
        if kind == "mobilenet_v1":
            cfg = t.MobileNetV1Config(image_size=64, depth_multiplier=0.25)
            return Hidden(t.MobileNetV1Model(cfg), "pixel_values"), img
        if kind == "wav2vec2":
            cfg = t.Wav2Vec2Config(**small, conv_dim=(32, 32), conv_stride=(5, 2),
                                   conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                                   num_conv_pos_embedding_groups=4)
            return Hidden(t.Wav2Vec2Model(cfg), "input_values"), (torch.randn(1, 800),)
        if kind == "whisper_tiny":
            cfg = t.WhisperConfig(d_model=64, encoder_layers=2, encoder_attention_heads=4,
                                  encoder_ffn_dim=128, decoder_layers=1,
                                  decoder_attention_heads=4, decoder_ffn_dim=128,
                                  num_mel_bins=16, max_source_positions=32)
            return Hidden(t.WhisperModel(cfg).get_encoder(), "input_features"), \
                (torch.randn(1, 16, 64),)
        raise ValueError(kind)
    return make


class TokenBatchNorm(torch.nn.Module):
    """LeViT-style: Linear, BatchNorm1d over the tokens' channels (rank 3), ReLU,
    Linear, residual."""

    def __init__(self):
        super().__init__()
        self.fc, self.bn = torch.nn.Linear(32, 32), torch.nn.BatchNorm1d(16)
        self.fc2 = torch.nn.Linear(32, 32)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc(x)))) + x


class Conv1dStem(torch.nn.Module):
    """Whisper-style audio stem: two Conv1d with GELU (the second strided), then
    a transpose to tokens, a LayerNorm and an MLP with a residual."""

    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv1d(16, 64, 3, padding=1)
        self.c2 = torch.nn.Conv1d(64, 64, 3, stride=2, padding=1)
        self.ln = torch.nn.LayerNorm(64)
        self.fc1, self.fc2 = torch.nn.Linear(64, 128), torch.nn.Linear(128, 64)

    def forward(self, x):
        x = torch.nn.functional.gelu(self.c2(torch.nn.functional.gelu(self.c1(x))))
        x = x.permute(0, 2, 1)
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln(x))))


def t5_layer_ff():
    """transformers' own T5LayerFF (T5's RMSNorm, Pow → ReduceMean → Add → Sqrt, then
    its dense-ReLU-dense and residual) on 1×16×32 tokens."""
    import transformers as t
    cfg = t.T5Config(d_model=32, d_ff=64, dropout_rate=0.0)
    return t.models.t5.modeling_t5.T5LayerFF(cfg), (torch.randn(1, 16, 32),)


def own(cls, *shape):
    return lambda: (cls(), (torch.randn(*shape),))


MODELS = {
    "t5_layer_ff_dynamo": t5_layer_ff,
    "token_batchnorm": own(TokenBatchNorm, 1, 16, 32),
    "conv1d_stem": own(Conv1dStem, 1, 16, 64),
    **{k: hf(k) for k in [
        "t5_encoder", "llama", "qwen2", "electra", "mpnet", "deberta_v2", "bart_encoder",
        "opt", "levit", "deit", "beit", "clip_vision", "segformer", "poolformer",
        "mobilevit", "hf_resnet", "hf_convnext", "mobilenet_v1", "wav2vec2",
        "whisper_tiny"]},
}


def export(name, dynamo=False):
    """Writes model `name`; `dynamo`: as torch's default exporter writes it (dynamo,
    opset 18, its optimizer on), to OUT/dynamo."""
    torch.manual_seed(0)
    model, args = MODELS[name]()
    model.eval()
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
    if dynamo:
        program = torch.onnx.export(model, args, opset_version=18, input_names=["input"],
                                    dynamo=True)
        m = weight_free(program.model_proto)
    elif name.endswith("_dynamo"):
        # torch's dynamo exporter as it writes the graph, its optimizer off: the
        # ReduceMean's axes stay computed (onnxscript's Reshape of a constant dim),
        # which Aidge's forward_dims reads before any kernel ran (issue #35's RMSNorm).
        program = torch.onnx.export(model, args, opset_version=18, input_names=["input"],
                                    dynamo=True, optimize=False)
        m = weight_free(program.model_proto)
    else:
        buf = io.BytesIO()
        torch.onnx.export(model, args, buf, opset_version=17, do_constant_folding=True,
                          input_names=["input"], dynamo=False)
        m = weight_free(onnx.load_from_string(buf.getvalue()))
    data = m.SerializeToString()
    out = OUT / "dynamo" if dynamo else OUT
    out.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(out / f"{name}.onnx.gz", "wb", mtime=0) as f:
        f.write(data)
    return len(data)


def main(argv):
    dynamo = "--dynamo" in argv
    names = [a for a in argv[1:] if a != "--dynamo"] or \
        [m for m in MODELS if not (dynamo and m.endswith("_dynamo"))]
    for name in names:
        try:
            print(f"{name}: {export(name, dynamo)} bytes", flush=True)
        except Exception as e:  # a family torch cannot export is reported, not fatal
            print(f"FAIL {name}: {type(e).__name__}: {str(e)[:200]}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
