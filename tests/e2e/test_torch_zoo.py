"""transformers' architectures as a user brings them (`make test-torch`, AOTC_TEST_TORCH=1):
tiny configs with random weights (no downloads), the library's default attention, exported
with a dynamic batch and sequence and compiled as exported, each against eager at three
shapes from one library. The 2026-11-29 sweep's table (docs/pytorch.md) lists more: 47
architectures, all matching; these 22 cover their distinct parts in about 3 minutes."""
import os

import numpy as np
import pytest

import aot

if not os.environ.get("AOTC_TEST_TORCH"):
    pytest.skip("PyTorch's live tests run in `make test-torch`", allow_module_level=True)

import transformers as hf  # noqa: E402

import lowering.torch.rules  # noqa: E402,F401  (fills the table)
import torch  # noqa: E402
from aot import import_torch  # noqa: E402
from aot.import_torch import op_names  # noqa: E402
from lowering.torch.table import lowerable  # noqa: E402
from torch import nn  # noqa: E402
from torch.export import Dim  # noqa: E402

V = 100
LLAMA = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, vocab_size=V, max_position_embeddings=128)
BERTISH = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
               vocab_size=V, max_position_embeddings=128)
SEQ2SEQ = dict(d_model=32, encoder_ffn_dim=64, decoder_ffn_dim=64, encoder_layers=2,
               decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
               vocab_size=V, max_position_embeddings=128)
IMAGE = dict(BERTISH, image_size=32, patch_size=8)

# name -> (config class, model class, config, inputs: "ids", "ids+mask", "ids+dec",
# "pixels" or "audio")
MODELS = {
    "llama": (hf.LlamaConfig, hf.LlamaForCausalLM, LLAMA, "ids+mask"),
    "gemma2": (hf.Gemma2Config, hf.Gemma2ForCausalLM, dict(LLAMA, head_dim=16), "ids"),
    "phi": (hf.PhiConfig, hf.PhiForCausalLM, LLAMA, "ids"),
    "gpt_neo": (hf.GPTNeoConfig, hf.GPTNeoForCausalLM,
                dict(hidden_size=64, num_layers=2, num_heads=4, vocab_size=V, window_size=8,
                     attention_types=[[["global", "local"], 1]], max_position_embeddings=128),
                "ids"),
    "gptj": (hf.GPTJConfig, hf.GPTJForCausalLM,
             dict(n_embd=64, n_layer=2, n_head=4, rotary_dim=8, vocab_size=V, n_positions=128),
             "ids"),
    "opt": (hf.OPTConfig, hf.OPTForCausalLM,
            dict(hidden_size=64, ffn_dim=128, num_hidden_layers=2, num_attention_heads=4,
                 vocab_size=V, word_embed_proj_dim=64, max_position_embeddings=128), "ids+mask"),
    "bloom": (hf.BloomConfig, hf.BloomForCausalLM,  # ALiBi by baddbmm
              dict(hidden_size=64, n_layer=2, n_head=4, vocab_size=V), "ids+mask"),
    "falcon": (hf.FalconConfig, hf.FalconForCausalLM,  # x.T (aten.numpy_T) in its attention
               dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, vocab_size=V),
               "ids"),
    "falcon_alibi": (hf.FalconConfig, hf.FalconForCausalLM,  # one key/value head, ALiBi mask
                     dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                          vocab_size=V, alibi=True), "ids"),
    "distilbert": (hf.DistilBertConfig, hf.DistilBertModel,
                   dict(dim=32, hidden_dim=64, n_layers=2, n_heads=4, vocab_size=V,
                        max_position_embeddings=128), "ids+mask"),
    "roberta": (hf.RobertaConfig, hf.RobertaModel, dict(BERTISH, pad_token_id=1), "ids+mask"),
    "deberta_v2": (hf.DebertaV2Config, hf.DebertaV2Model,
                   dict(BERTISH, relative_attention=True, pos_att_type=["p2c", "c2p"]),
                   "ids+mask"),
    "t5": (hf.T5Config, hf.T5ForConditionalGeneration,
           dict(d_model=32, d_ff=64, d_kv=8, num_layers=2, num_heads=4, vocab_size=V), "ids+dec"),
    "bart": (hf.BartConfig, hf.BartForConditionalGeneration, SEQ2SEQ, "ids+dec"),
    "vit": (hf.ViTConfig, hf.ViTModel, IMAGE, "pixels"),
    "beit": (hf.BeitConfig, hf.BeitModel,  # its relative position index written in place
             dict(IMAGE, use_relative_position_bias=True), "pixels"),
    "swin": (hf.SwinConfig, hf.SwinModel,
             dict(image_size=32, patch_size=2, embed_dim=16, depths=[2, 2], num_heads=[2, 4],
                  window_size=4), "pixels"),
    "convnext": (hf.ConvNextConfig, hf.ConvNextModel,
                 dict(hidden_sizes=[16, 32], depths=[1, 1], num_stages=2), "pixels"),
    "resnet": (hf.ResNetConfig, hf.ResNetModel,
               dict(embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1]), "pixels"),
    "mobilevit": (hf.MobileViTConfig, hf.MobileViTModel,
                  dict(image_size=32, patch_size=2, hidden_sizes=[16, 24, 32],
                       neck_hidden_sizes=[8, 8, 16, 16, 24, 24, 32]), "pixels"),
    "segformer": (hf.SegformerConfig, hf.SegformerForSemanticSegmentation,
                  dict(num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
                       hidden_sizes=[16, 32], num_attention_heads=[1, 2], decoder_hidden_size=32,
                       num_labels=3, patch_sizes=[7, 3], strides=[4, 2], mlp_ratios=[2, 2]),
                  "pixels"),
    "wav2vec2": (hf.Wav2Vec2Config, hf.Wav2Vec2Model,  # group_norm, _weight_norm
                 dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                      intermediate_size=64, conv_dim=(16, 16), conv_stride=(5, 2),
                      conv_kernel=(10, 3), num_conv_pos_embeddings=16,
                      num_conv_pos_embedding_groups=4, vocab_size=V), "audio"),
}
DECODERS = {"llama", "gemma2", "phi", "gpt_neo", "gptj", "opt", "bloom", "falcon",
            "falcon_alibi"}


class Inputs(nn.Module):
    """The model called with its inputs by name; returns the first output (logits, or the
    last hidden state)."""

    def __init__(self, inner, names, kwargs):
        super().__init__()
        self.inner, self.names, self.kwargs = inner, names, kwargs

    def forward(self, a, b=None):
        args = (a,) if b is None else (a, b)
        out = self.inner(**dict(zip(self.names, args)), **self.kwargs)
        return out[0]


def padding_mask(b, s):
    """Right padding: row i ends (s // 4 + 1) * i tokens early, at least one token kept."""
    mask = torch.ones(b, s, dtype=torch.int64)
    for i in range(b):
        mask[i, max(1, s - i * (s // 4 + 1)):] = 0
    return mask


def build(name):
    """(model, dynamic shapes, example maker, shapes: the export's first, then three)."""
    cfg_cls, model_cls, config, kind = MODELS[name]
    torch.manual_seed(0)
    inner = model_cls(cfg_cls(**config))
    with torch.no_grad():  # transformers starts some weights at 0 or 1: random throughout
        for p in inner.parameters():
            p.add_(torch.randn_like(p) * 0.05)
    batch = Dim("batch", min=1, max=16)
    seq = Dim("seq", min=2, max=64)
    kwargs = {"use_cache": False} if name in DECODERS else {}
    if kind == "pixels":
        names, dims, shapes = ["pixel_values"], ({0: batch},), [(2,), (1,), (3,), (5,)]
        make = lambda b: (torch.randn(b, 3, 32, 32),)  # noqa: E731
    elif kind == "audio":
        names, dims = ["input_values"], ({0: batch, 1: 10 * Dim("t10", min=4, max=400)},)
        shapes = [(2, 200), (1, 160), (3, 410), (2, 990)]
        make = lambda b, t: (torch.randn(b, t),)  # noqa: E731
    elif kind == "ids+dec":
        names, dims = ["input_ids", "decoder_input_ids"], \
            ({0: batch, 1: seq}, {0: batch, 1: Dim("dec", min=2, max=64)})
        shapes = [(2, 8), (1, 5), (3, 17), (2, 33)]
        make = lambda b, s: (torch.randint(2, V, (b, s)),  # noqa: E731
                             torch.randint(2, V, (b, s // 2 + 1)))
    else:
        names, dims = ["input_ids"], ({0: batch, 1: seq},)
        shapes = [(2, 8), (1, 5), (3, 17), (2, 33)]
        make = lambda b, s: (torch.randint(2, V, (b, s)),)  # noqa: E731
        if kind == "ids+mask":
            names, dims = names + ["attention_mask"], dims + ({0: batch, 1: seq},)
            make = lambda b, s: (torch.randint(2, V, (b, s)), padding_mask(b, s))  # noqa: E731
    return Inputs(inner.eval(), names, kwargs).eval(), dims, make, shapes


@pytest.mark.parametrize("name", list(MODELS))
def test_transformers_architecture_dynamic_shapes(name, monkeypatch):
    """One library per architecture serves every batch (and sequence, or audio length) its
    Dims allow; each output within 1e-4 of eager's scale (observed 1e-7..1e-6). Every op
    has a rule and every in-place write is taken as functional, so the program is lowered
    as exported (no run_decompositions retrace: BEiT and Falcon-ALiBi needed one until
    2026-11-29)."""
    model, dims, make, shapes = build(name)
    with torch.no_grad():
        ep = torch.export.export(model, make(*shapes[0]), dynamic_shapes=dims)
    assert [op for op in sorted(op_names(ep)) if not lowerable(op)] == []
    decomposed = []
    as_bytes = import_torch.program_bytes
    monkeypatch.setattr(import_torch, "program_bytes",
                        lambda ep, decompose: decomposed.append(decompose) or as_bytes(ep, decompose))
    lib = aot.compile(ep, f"zoo_{name}")
    assert decomposed == [False]
    for shape in shapes[1:]:
        args = make(*shape)
        with torch.no_grad():
            want = model(*args).numpy()
        got = lib.main(*[a.numpy() for a in args])
        assert got.shape == want.shape and np.abs(want).max() > 0
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max(),
                                   err_msg=f"{name} at {shape}")
