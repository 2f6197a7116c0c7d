"""fbosim.run's progress (issue 28): a tqdm bar when tqdm is installed (Debian's python3-tqdm),
else one line on stderr redrawn in place; shown only once a run has taken a second (as the
fbosim command's), so quick calls stay silent. `fbosim.run(..., progress=False)` turns it off.

The C++ runner counts rounds; the module calls `update(done, total, runs)` from Python's own
thread (never from the runner's), at most every 50 ms and only when the count changed: done of
total = runs x (rounds + 1) rounds, round 0 being the initial points.
"""
import sys
import time

DELAY = 1.0  # seconds before anything is shown
LINE_INTERVAL = 10.0  # seconds between plain lines where \r cannot redraw (a log file)


def _tqdm_class():
    """tqdm's notebook widget inside a Jupyter kernel that has ipywidgets, else its text bar
    (which Jupyter draws too: it understands \\r); None without tqdm."""
    try:
        from tqdm import std
    except ImportError:
        return None
    if "ipykernel" in sys.modules:
        try:
            import ipywidgets  # noqa: F401
            from tqdm import notebook
            return notebook.tqdm
        except ImportError:
            pass
    return std.tqdm


class _Tqdm:
    def __init__(self, cls):
        self.cls, self.bar, self.runs = cls, None, 0

    def update(self, done, total, runs):
        if self.bar is None:
            self.runs = runs
            self.bar = self.cls(total=total, unit="round", desc="fbosim", delay=DELAY,
                                dynamic_ncols=True, leave=True)
        self.bar.set_postfix_str(f"run {min(done * runs // total + 1, runs)}/{runs}",
                                 refresh=False)
        self.bar.update(done - self.bar.n)  # drawn once DELAY has passed (tqdm's delay)

    def close(self):
        if self.bar is not None:
            self.bar.close()


class _Line:
    """`fbosim: run 2/5  45%  3.1 s elapsed, ETA 3.8 s`, redrawn with \\r on a terminal or in a
    notebook; elsewhere a line every 10 s and at every finished run."""

    def __init__(self, stream):
        self.stream, self.start, self.last, self.shown, self.done_runs = stream, None, 0.0, False, 0
        self.redraw = "ipykernel" in sys.modules or _isatty(stream)

    def update(self, done, total, runs):
        now = time.monotonic()
        if self.start is None:
            self.start = now
        elapsed = now - self.start
        done_runs = done * runs // total
        if elapsed < DELAY:
            self.done_runs = done_runs
            return
        if not self.redraw and done_runs == self.done_runs and now - self.last < LINE_INTERVAL \
                and self.shown:
            return
        self.done_runs, self.last, self.shown = done_runs, now, True
        frac = done / total
        eta = elapsed * (1 - frac) / frac if frac > 0 else 0.0
        text = (f"fbosim: run {min(done_runs + 1, runs)}/{runs}  {100 * frac:.0f}%  "
                f"{elapsed:.1f} s elapsed, ETA {eta:.1f} s")
        self.stream.write(("\r" + text + "   ") if self.redraw else text + "\n")
        self.stream.flush()

    def close(self):
        if self.shown and self.redraw:
            self.stream.write("\n")
            self.stream.flush()


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def reporter(enabled):
    """An object with update(done, total, runs) and close(), or None when `enabled` is false."""
    if not enabled:
        return None
    cls = _tqdm_class()
    return _Tqdm(cls) if cls is not None else _Line(sys.stderr)
