"""The style options every plotting tool takes (docs/FIGURES.md): --log/--linear (the utility
axis; default: each figure's paper scale), --log-epsilon/--linear-epsilon (the epsilon axis;
default: log when it spans more than a decade), --size WxH (inches), --legend PLACE,
--no-title, --no-footnote, --bare (both), --format (png, pdf, svg; default png and pdf). Kept
apart from fbosim_plots so that a tool can read its command line before it imports matplotlib
(tools/plot_privacy.py overlaps that import with its privacy processes).
"""

# What the figures show; tools set it from their command line (add_style_arguments).
# scale: None = each figure's default (the papers' scales: docs/FIGURES.md), "log" or "linear"
# for the utility axis of every figure.
# size: None = each figure's own size, else (width, height) in inches (--size WxH); legend:
# None = each figure's own place, else one of LEGEND_PLACES; epsilon_scale: None = log when the
# positive epsilons drawn span more than a decade (max > 10 min), else linear, or "log"/"linear".
STYLE = {"title": True, "footnote": True, "scale": None, "formats": ("png", "pdf"),
         "size": None, "legend": None, "epsilon_scale": None}
FORMATS = ("png", "pdf", "svg")
# "outside": right of the axes (covers no data); "below": under the axes; "none": no legend;
# the others are matplotlib's places inside the axes.
LEGEND_PLACES = ("outside", "below", "none", "best", "upper right", "upper left", "lower left",
                 "lower right", "center left", "center right", "lower center", "upper center",
                 "center")


def add_style_arguments(parser):
    """--log/--linear, --no-title, --no-footnote, --bare, --format: the options every plotting
    tool takes (set_style applies them)."""
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--log", dest="scale", action="store_const", const="log",
                   help="log-scale utility axis in every figure (default: each figure's "
                   "paper scale)")
    g.add_argument("--linear", dest="scale", action="store_const", const="linear",
                   help="linear utility axis in every figure")
    parser.add_argument("--no-title", action="store_true", help="draw no titles")
    parser.add_argument("--no-footnote", action="store_true",
                        help="draw no footnote (the runs and bands note inside the axes)")
    parser.add_argument("--bare", action="store_true", help="--no-title and --no-footnote "
                        "(for a paper, whose caption says both)")
    e = parser.add_mutually_exclusive_group()
    e.add_argument("--log-epsilon", dest="epsilon_scale", action="store_const", const="log",
                   help="log-scale epsilon axis (default: log when the epsilons drawn span more "
                   "than a decade, else linear)")
    e.add_argument("--linear-epsilon", dest="epsilon_scale", action="store_const",
                   const="linear", help="linear epsilon axis")
    parser.add_argument("--size", metavar="WxH", help="figure size in inches, e.g. 5.5x3.5 "
                        "(default: each figure's own)")
    parser.add_argument("--legend", metavar="PLACE", help="where the legend goes: "
                        + ", ".join(LEGEND_PLACES) + " (default: each figure's own; "
                        "outside = right of the axes)")
    parser.add_argument("--format", default="png,pdf", metavar="LIST",
                        help="comma-separated output formats among png, pdf (vector), svg "
                        "(vector); default: png,pdf")


def set_style(parser, args):
    """STYLE from add_style_arguments' options; a bad --format is a usage error (exit 2)."""
    formats = tuple(dict.fromkeys(f.strip().lower() for f in args.format.split(",")
                                  if f.strip()))
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        parser.error(f"--format takes a comma-separated list of {', '.join(FORMATS)}, "
                     f"got '{args.format}'")
    size = None
    if args.size is not None:
        w, x, h = args.size.lower().partition("x")
        try:
            size = (float(w), float(h)) if x else None
        except ValueError:
            size = None
        if size is None or not all(0.5 <= v <= 50 for v in size):
            parser.error(f"--size takes WxH in inches, each in [0.5, 50], e.g. 5.5x3.5; got "
                         f"'{args.size}'")
    if args.legend is not None and args.legend not in LEGEND_PLACES:
        parser.error(f"--legend takes one of {', '.join(LEGEND_PLACES)}; got '{args.legend}'")
    STYLE.update(title=not (args.no_title or args.bare),
                 footnote=not (args.no_footnote or args.bare), scale=args.scale,
                 formats=formats, size=size, legend=args.legend,
                 epsilon_scale=args.epsilon_scale)


def figure_size(default):
    """The figure's size in inches: --size, else the figure's own default."""
    return STYLE["size"] or default


