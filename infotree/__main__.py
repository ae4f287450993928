import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line is still being imported
    sys.stderr.write("infotree: interrupted\n")
    raise SystemExit(130) from None

raise SystemExit(main())
