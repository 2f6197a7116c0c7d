"""Federated hyperparameter tuning of a scikit-learn SVM: agent n tunes (C, gamma) of an RBF
SVC on its own share of the digits data set that Debian's python3-sklearn ships (no download).

The 1,797 images are split across AGENTS agents non-iid: each agent's share of every label is a
draw from a Dirichlet(ALPHA) distribution (seeded, the usual way to make federated splits
heterogeneous), and each agent keeps a stratified half for validation. The objective is the
validation accuracy, a deterministic function of (x, agent): y = f, so `seed` is unused.

x lies in [0, 1]^2: log10 C = -2 + 5 x0 (C in [0.01, 1000]), log10 gamma = -5 + 4 x1.

Used by the `python` family (objective.callable:
"examples.federated_hpo.sklearn_objective:evaluate", run from the repository root) and, through
command_objective.py, by the `command` family.
"""
import functools

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

AGENTS = 10  # agents.count in the configs
ALPHA = 0.5  # Dirichlet concentration: smaller is less iid
SPLIT_SEED = 0


@functools.lru_cache(maxsize=None)
def split():
    """Per agent: (X_train, X_valid, y_train, y_valid)."""
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    rng = np.random.default_rng(SPLIT_SEED)
    owners = np.empty(len(y), dtype=int)
    for label in np.unique(y):
        idx = np.flatnonzero(y == label)
        rng.shuffle(idx)
        shares = rng.dirichlet(np.full(AGENTS, ALPHA))
        cuts = (np.cumsum(shares)[:-1] * len(idx)).astype(int)
        for agent, part in enumerate(np.split(idx, cuts)):
            owners[part] = agent
    out = []
    for agent in range(AGENTS):
        mine = np.flatnonzero(owners == agent)
        labels = y[mine]
        # Stratify where every class has two examples; otherwise a plain seeded split.
        counts = np.bincount(labels)
        strat = labels if counts[counts > 0].min() >= 2 else None
        out.append(train_test_split(X[mine], labels, test_size=0.5, random_state=agent,
                                    stratify=strat))
    return out


def evaluate(x, agent, seed):
    """Validation accuracy of SVC(C, gamma) on agent `agent`'s data."""
    X_train, X_valid, y_train, y_valid = split()[agent]
    C = 10.0 ** (-2 + 5 * x[0])
    gamma = 10.0 ** (-5 + 4 * x[1])
    if len(np.unique(y_train)) < 2:
        return float(np.mean(y_valid == y_train[0]))
    model = SVC(C=C, gamma=gamma).fit(X_train, y_train)
    return float(model.score(X_valid, y_valid))
