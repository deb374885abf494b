"""Chapter 2 exercises: selecting feature vectors from a batch of sequences."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import Call, cases, fix, implement, predict
from gatherlab.exercises.implement import ErrorHint

features = torch.arange(12).reshape(2, 3, 2)  # (batch, time, feature)
positions = torch.tensor([[2, 0], [1, 1]])  # (batch, picks)


def three_picks() -> torch.Tensor:
    """Each sequence asks for three time steps."""
    three = torch.tensor([[0, 2, 2], [2, 1, 0]])
    index = three.unsqueeze(-1).expand(-1, -1, 2)
    return torch.gather(features, 1, index)


predict(
    "02.predict_three_picks",
    "Predict a batched selection with three picks",
    code=three_picks,
    explain=Call(
        "gather",
        features,
        1,
        torch.tensor([[0, 2, 2], [2, 1, 0]]).unsqueeze(-1).expand(-1, -1, 2),
        input_name="features",
    ),
)


def select_steps(
    features: torch.Tensor,
    positions: torch.Tensor,
) -> torch.Tensor:
    """out[b, j] is the whole vector features[b, positions[b, j]]."""
    index = positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])
    return torch.gather(features, 1, index)


def _sequences_case(rng: np.random.Generator) -> dict[str, torch.Tensor]:
    batch, time, width = cases.shape(rng, 3)
    picks = int(rng.integers(1, 6))  # may exceed the time steps: positions repeat
    return {
        "features": cases.values(rng, (batch, time, width)),
        "positions": cases.positions(rng, time, (batch, picks)),
    }


def _every_step_index(features: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    return positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])


# The torch call behind the three selections (it explains their values).
EVERY_STEP = Call(
    "gather", "features", 1, _every_step_index, index_name="positions (expanded)"
)


implement(
    "02.select_steps",
    "Select whole feature vectors at each sequence's time positions",
    solution=select_steps,
    example={"features": features, "positions": positions},
    generate=_sequences_case,
    call=EVERY_STEP,
)


def last_valid_step(
    features: torch.Tensor,
    lengths: torch.Tensor,
) -> torch.Tensor:
    """Sequence b's vector at time lengths[b] - 1: (batch, feature)."""
    last = (lengths - 1).view(-1, 1, 1)
    index = last.expand(-1, 1, features.shape[-1])
    return torch.gather(features, 1, index).squeeze(1)


def _padded_case(rng: np.random.Generator) -> dict[str, torch.Tensor]:
    batch, time, width = cases.shape(rng, 3)
    lengths = cases.positions(rng, time, (batch,)) + 1  # 1..time, both ends included
    real = torch.arange(time)[None, :, None] < lengths[:, None, None]
    padded = cases.values(rng, (batch, time, width)) * real
    # A real step may hold zeros too (a zero embedding): in about one case in four
    # the last real step of one sequence does, so counting the nonzero steps in
    # place of reading lengths fails. Drawn apart, so the other cases stay as drawn.
    own = np.random.default_rng(int(padded.sum()))
    if own.random() < 0.25:
        sequence = int(own.integers(0, batch))
        padded[sequence, int(lengths[sequence]) - 1] = 0
    return {"features": padded, "lengths": lengths}


implement(
    "02.last_valid_step",
    "Take the last real step of every padded sequence",
    solution=last_valid_step,
    example={
        "features": torch.tensor(
            [[[5, 6], [2, 4], [2, 4], [7, 3]], [[8, 2], [8, 1], [0, 0], [0, 0]]]
        ),
        "lengths": torch.tensor([4, 2]),
    },
    generate=_padded_case,
    call=Call(
        "gather",
        "features",
        1,
        lambda features, lengths: (
            (lengths - 1).view(-1, 1, 1).expand(-1, 1, features.shape[-1])
        ),
        index_name="lengths - 1 (expanded)",
    ),
    finish=lambda out: out.squeeze(1),
)

wrong_index = positions.unsqueeze(1).expand(2, 2, 2)


def unsqueeze_last(features: torch.Tensor, wrong_index: torch.Tensor) -> torch.Tensor:
    """The new axis goes last: every feature of pick j reads positions[b, j]."""
    return positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])


fix(
    "02.fix_wrong_axis",
    "Fix an index that runs but reads the wrong features",
    broken=Call(
        "gather",
        features,
        1,
        wrong_index,
        input_name="features",
        index_name="wrong_index",
    ),
    solution=unsqueeze_last,
    positions="positions",
)

beam = 3
states = torch.arange(24).reshape(6, 4)  # (batch * beam, hidden): row b * beam + k
# Old beam k within batch member b; not the worked example's parents, whose
# reordering a learner could otherwise copy.
beam_parents = torch.tensor([[2, 2, 1], [0, 1, 1]])
flat_index = beam_parents.reshape(-1, 1).expand(-1, 4)


def add_batch_offsets(states: torch.Tensor, flat_index: torch.Tensor) -> torch.Tensor:
    """Row r is in batch member r // beam: add that member's first row."""
    member = torch.arange(flat_index.shape[0]) // beam
    return flat_index + (member * beam)[:, None]


fix(
    "02.fix_beam_rows",
    "Fix a beam reordering that reads the first batch member's beams for everyone",
    broken=Call(
        "gather",
        states,
        0,
        flat_index,
        input_name="states",
        index_name="flat_index",
    ),
    solution=add_batch_offsets,
)


def tf_select_steps(features, positions):
    """batch_dims=1: sequence b reads only its own positions[b]."""
    import tensorflow as tf

    return tf.gather(features, positions, axis=1, batch_dims=1)


implement(
    "02.tf_select_steps",
    "Select whole feature vectors with tf.gather",
    solution=tf_select_steps,
    example={"features": features, "positions": positions},
    generate=_sequences_case,
    call=EVERY_STEP,
    convert=cases.tensorflow,
)


def tf_select_pairs(features, positions):
    """Stack (batch, position) pairs on the last axis for gather_nd."""
    import tensorflow as tf

    shape = tf.shape(positions, out_type=positions.dtype)
    rows = tf.broadcast_to(tf.range(shape[0])[:, None], shape)
    pairs = tf.stack([rows, positions], axis=-1)
    return tf.gather_nd(features, pairs)


# Coordinates that are not (batch, position) pairs on the index's last axis.
_pairs_hint = ErrorHint(
    "does not index into param shape",
    "hint.gather_nd_pairs",
    lambda args: {
        "batch": str(args["positions"].shape[0]),
        "picks": str(args["positions"].shape[1]),
    },
)


implement(
    "02.tf_gather_nd_pairs",
    "Select whole feature vectors with tf.gather_nd and (batch, position) pairs",
    solution=tf_select_pairs,
    example={"features": features, "positions": positions},
    generate=_sequences_case,
    call=EVERY_STEP,
    convert=cases.tensorflow,
    require=("tensorflow.gather_nd",),
    hint=_pairs_hint,
)
