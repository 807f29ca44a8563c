from companion.cli import build_parser


def test_serve_command_is_registered() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.command == "serve"
    assert callable(args.handler)
