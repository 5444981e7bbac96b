"""The architecture variants of thesis Tables 5.2 (BERT) and 5.3 (GloVe), as data.

A variant is a list of layer specs stacked on top of the embeddings, followed by one linear output
with a sigmoid per text element (thesis 5.4.1.2). Spec grammar (the tables' notation):

* ``d256``: dense layer, 256 output features (per token before a leave-out layer, per element after);
* ``c15x64``: 1-D convolution, kernel 15, 64 channels, over tokens;
* ``r128``: bidirectional LSTM, 128 cells, over tokens;
* ``lc32x256``: leave-out convolution (:class:`models.leave_out.LOConv`), kernel 32, 256 channels;
* ``lr512``: one level of a leave-out BiLSTM (:class:`models.leave_out.LOBiRNN`), 512 cells.
  Consecutive ``lr`` specs are the stacked levels of one LOBiRNN: forward and backward stacks must
  never see each other, so a leave-out layer is used once (thesis 5.4.1.1).

Dropout (thesis 5.4.2.3) sits after the embeddings and before the dense layers: 0.1 for heads up to
about one million weights, 0.3 for larger ones. Batch sizes follow 5.4.4.1: 6 for fine-tuning BERT,
16 for everything else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

_SPEC_RE = re.compile(r"^(d|r|lr)(\d+)$|^(c|lc)(\d+)x(\d+)$")

BERT = "bert"
GLOVE = "glove"


@dataclass(frozen=True)
class LayerSpec:
    """One parsed spec: ``kind`` is d, c, r, lc or lr; ``kernel`` is 0 for d, r and lr."""

    kind: str
    units: int
    kernel: int = 0

    @classmethod
    def parse(cls, spec: str) -> LayerSpec:
        match = _SPEC_RE.match(spec)
        if not match:
            raise ValueError(f"bad layer spec {spec!r}: expected d<N>, r<N>, lr<N>, c<K>x<N> or lc<K>x<N>")
        if match.group(1):
            return cls(match.group(1), int(match.group(2)))
        return cls(match.group(3), int(match.group(5)), int(match.group(4)))

    def __str__(self) -> str:
        return f"{self.kind}{self.kernel}x{self.units}" if self.kernel else f"{self.kind}{self.units}"


@dataclass(frozen=True)
class Variant:
    """A named architecture: embeddings (``bert`` or ``glove``), layer specs, training defaults."""

    name: str
    embedding: str
    layers: tuple[str, ...]
    dropout: float = 0.1
    fine_tune: bool = False
    batch_size: int = 16

    @property
    def specs(self) -> list[LayerSpec]:
        return [LayerSpec.parse(s) for s in self.layers]

    @property
    def leave_out(self) -> bool:
        """Whether a leave-out layer makes each element's output independent of the element."""
        return any(s.kind in ("lc", "lr") for s in self.specs)

    def scaled(self, divisor: int) -> Variant:
        """The same architecture with every width divided by ``divisor`` (tiny models for tests)."""
        layers = tuple(str(replace(s, units=max(2, s.units // divisor))) for s in self.specs)
        return replace(self, layers=layers)

    def describe(self) -> str:
        head = " ".join(self.layers) if self.layers else "BERT fine-tuned"
        return f"{self.name} ({self.embedding}: {head})"


def _bert(name, *layers, dropout=0.1):
    return Variant(name, BERT, layers, dropout)


def _glove(name, *layers, dropout=0.1):
    return Variant(name, GLOVE, layers, dropout)


# Table 5.2: heads on top of (frozen) BERT embeddings, plus the fine-tuned variant FT.
BERT_VARIANTS = [
    _bert("Dense", "d256", "d256"),
    _bert("Conv1", "c15x64", "c5x128"),
    _bert("Conv2", "c7x128", "c15x64", "c15x64"),
    _bert("Conv3", "c5x128", "c3x64"),
    _bert("Conv4", "c15x16", "c5x32"),
    _bert("RNN1", "r128", "r128", dropout=0.3),
    _bert("RNN2", "r256", "r256", "d128", "d64", dropout=0.3),
    _bert("RNN3", "r128", "r128", "r128", "d128", "d64", dropout=0.3),
    _bert("RNN4", "r512", "r512", "d256", "d128", "d64", dropout=0.3),
    _bert("LOConv1", "lc32x256", "d256", "d128", "d64", dropout=0.3),
    Variant("FT", BERT, (), dropout=0.1, fine_tune=True, batch_size=6),
]

# Table 5.3: leave-out layers on top of the combined GloVe embeddings (300-d pretrained + 200-d corpus).
GLOVE_VARIANTS = [
    _glove("LOConv2", "d64", "lc32x256", "d128", "d64"),
    _glove("LOConv3", "d128", "lc32x512", "d256", "d128", "d64", dropout=0.3),
    _glove("LOConv4", "d64", "lc64x256", "d128", "d64"),
    _glove("LORNN1", "lr256", "d256", "d128", dropout=0.3),
    _glove("LORNN2", "lr512", "lr512", "d512", "d256", dropout=0.3),
    _glove("LORNN3", "lr512", "lr512", "lr512", "d512", "d256", dropout=0.3),
]

VARIANTS: dict[str, Variant] = {v.name: v for v in BERT_VARIANTS + GLOVE_VARIANTS}


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (case-insensitive); the error lists the known ones."""
    for key, variant in VARIANTS.items():
        if key.lower() == name.lower():
            return variant
    raise KeyError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}")


def check_stacking(variant: Variant) -> None:
    """Leave-out layers must come once, after only per-token dense layers (thesis 5.4.1.1)."""
    kinds = [s.kind for s in variant.specs]
    lo = [i for i, k in enumerate(kinds) if k in ("lc", "lr")]
    if not lo:
        return
    block = kinds[lo[0] : lo[-1] + 1]
    if not (all(k == "lr" for k in block) or block == ["lc"]):
        raise ValueError(f"{variant.name}: leave-out layers cannot be stacked: {' '.join(variant.layers)}")
    if any(k != "d" for k in kinds[: lo[0]]):
        raise ValueError(f"{variant.name}: only dense layers may precede a leave-out layer")
    if any(k != "d" for k in kinds[lo[-1] + 1 :]):
        raise ValueError(f"{variant.name}: only dense layers may follow a leave-out layer")


for _variant in VARIANTS.values():
    check_stacking(_variant)
