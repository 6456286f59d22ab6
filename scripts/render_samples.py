"""Render the sample clips of ``sample_videos/`` from their night scripts, reproducibly.

    python scripts/render_samples.py                 # every script in sample_videos/scripts
    python scripts/render_samples.py kharkiv_hit_ru  # only the named ones
    python scripts/render_samples.py --out /tmp/clips --cache /tmp/sprites

Sprites are rendered once and cached (default ``cache/sprites``, outside git).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.errors import UserError  # noqa: E402
from mafiavision.samples.render import render_clip  # noqa: E402
from mafiavision.samples.script import load_script  # noqa: E402
from mafiavision.samples.sprites import DEFAULT_CACHE, SpriteBank  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*", help="script names (default: all)")
    ap.add_argument("--scripts", type=Path, default=ROOT / "sample_videos" / "scripts")
    ap.add_argument("--out", type=Path, default=ROOT / "sample_videos")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)
    paths = sorted(args.scripts.glob("*.yaml"))
    if args.names:
        wanted = set(args.names)
        paths = [p for p in paths if p.stem in wanted]
        missing = wanted - {p.stem for p in paths}
        if missing:
            print(f"render_samples: no script named {sorted(missing)} in {args.scripts}",
                  file=sys.stderr)
            return 2
    bank = SpriteBank(args.cache)
    try:
        for path in paths:
            start = time.perf_counter()
            truth = render_clip(load_script(path), args.out, bank)
            size = (args.out / f"{truth.name}.mp4").stat().st_size
            print(f"{truth.name}: {truth.video.frames} frames {truth.video.width}x"
                  f"{truth.video.height}@{truth.video.fps} {truth.video.duration:.1f}s "
                  f"{size / 1e6:.2f} MB in {time.perf_counter() - start:.1f}s; "
                  f"cases: {', '.join(truth.cases)}", flush=True)
    except UserError as exc:
        print(f"render_samples: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
