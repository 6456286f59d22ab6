from mafiavision.cli import main

raise SystemExit(main())
