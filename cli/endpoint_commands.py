"""`endpoint`, `price` and `prompt`: what runs are configured with.

    python app.py endpoint add NAME --base-url URL --model ID [--api-key-env VAR]
                                    [--concurrency N] [--max-image-pixels P] [--params JSON]
    python app.py endpoint edit NAME [same options]   |  list [--json]  |  test NAME  |  remove NAME
    python app.py price set MODEL --input USD --output USD   |  list [--json]  |  remove MODEL
    python app.py prompt list  |  show NAME [--version V]  |  set NAME --file FILE

API keys are never arguments: an endpoint names the environment variable that holds its key.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path


def add_parsers(sub) -> None:
    p = sub.add_parser("endpoint", help="OpenAI-compatible model endpoints")
    actions = p.add_subparsers(dest="endpoint_command", metavar="ACTION", required=True)
    for action in ("add", "edit"):
        a = actions.add_parser(action, help=f"{action} an endpoint")
        a.add_argument("name")
        a.add_argument("--base-url", required=action == "add",
                       help="e.g. http://localhost:8000/v1 or https://api.openai.com/v1")
        a.add_argument("--model", required=action == "add", help="model id sent in requests")
        a.add_argument("--api-key-env", metavar="VAR",
                       help="NAME of the environment variable holding the API key")
        a.add_argument("--concurrency", type=int, help="requests in flight at most (default 8)")
        a.add_argument("--max-image-pixels", type=int, metavar="P",
                       help="downscale images above this many pixels")
        a.add_argument("--params", metavar="JSON",
                       help='default sampling parameters, e.g. \'{"temperature": 0}\'')
        a.add_argument("--db", default="cluelab.db")
        a.set_defaults(handler=run_endpoint_save)
    a = actions.add_parser("list", help="list endpoints")
    a.add_argument("--json", action="store_true")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_endpoint_list)
    a = actions.add_parser("test", help="test connection: model list and latency")
    a.add_argument("name")
    a.add_argument("--json", action="store_true")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_endpoint_test)
    a = actions.add_parser("remove", help="delete an endpoint (runs keep their snapshot)")
    a.add_argument("name")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_endpoint_remove)

    p = sub.add_parser("price", help="the price table used for cost projections and budgets")
    actions = p.add_subparsers(dest="price_command", metavar="ACTION", required=True)
    a = actions.add_parser("set", help="set USD per million tokens for a model id or glob")
    a.add_argument("model", help="model id, or a glob such as 'gpt-4o*'")
    a.add_argument("--input", type=float, required=True, help="USD per 1M prompt tokens")
    a.add_argument("--output", type=float, required=True, help="USD per 1M completion tokens")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_price_set)
    a = actions.add_parser("list", help="list prices")
    a.add_argument("--json", action="store_true")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_price_list)
    a = actions.add_parser("remove", help="remove a price")
    a.add_argument("model")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_price_remove)

    p = sub.add_parser("prompt", help="prompt templates (versioned in the database)")
    actions = p.add_subparsers(dest="prompt_command", metavar="ACTION", required=True)
    a = actions.add_parser("list", help="latest version of every template")
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_prompt_list)
    a = actions.add_parser("show", help="print a template")
    a.add_argument("name")
    a.add_argument("--version", type=int)
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_prompt_show)
    a = actions.add_parser("set", help="store a new version of a template from a file")
    a.add_argument("name")
    a.add_argument("--file", required=True)
    a.add_argument("--db", default="cluelab.db")
    a.set_defaults(handler=run_prompt_set)


def open_store(db: str):
    from store import Store

    if not Path(db).exists():
        raise SystemExit(f"error: database {db} does not exist")
    return Store.open(db)


def fail(message: str, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def run_endpoint_save(args) -> int:
    from store import StoreError

    from store import Store

    # add makes the database as `user add` does (README: the first start then seeds it)
    store = Store.open(args.db) if args.endpoint_command == "add" else open_store(args.db)
    fields = {"base_url": args.base_url, "model": args.model, "api_key_env": args.api_key_env,
              "concurrency": args.concurrency, "max_image_pixels": args.max_image_pixels}
    if args.params is not None:
        try:
            fields["params"] = json.loads(args.params)
        except ValueError as error:
            return fail(f"--params is not JSON: {error}")
    fields = {k: v for k, v in fields.items() if v is not None}
    try:
        if args.endpoint_command == "add":
            endpoint = store.add_endpoint(args.name, **fields)
        else:
            endpoint = store.update_endpoint(args.name, **fields)
    except StoreError as error:
        return fail(str(error))
    print(f"endpoint {endpoint['name']}: {endpoint['base_url']} model {endpoint['model']}"
          f" concurrency {endpoint['concurrency']}"
          + (f" key from ${endpoint['api_key_env']}" if endpoint["api_key_env"] else ""))
    return 0


def run_endpoint_list(args) -> int:
    import os

    endpoints = open_store(args.db).list_endpoints()
    for e in endpoints:  # whether the key's variable is set here, never its value: this
        # shell's environment, not the server's (the Experiments page says the server's)
        e["api_key_set"] = bool(e["api_key_env"] and
                                (os.environ.get(e["api_key_env"]) or "").strip())
    if args.json:
        print(json.dumps(endpoints, ensure_ascii=False))
        return 0
    for e in endpoints:
        key = (f"key ${e['api_key_env']} ({'set' if e['api_key_set'] else 'NOT SET'} in "
               "this shell)" if e["api_key_env"] else "no key")
        print(f"{e['name']}\t{e['base_url']}\t{e['model']}\tconcurrency {e['concurrency']}"
              f"\t{key}")
    return 0


def run_endpoint_test(args) -> int:
    from runner.endpoints import test_endpoint
    from store import StoreError

    try:
        report = test_endpoint(open_store(args.db), args.name)
    except StoreError as error:
        return fail(str(error))
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    elif report["ok"]:
        print(report["message"])
    else:
        print(f"error: {report['message']}", file=sys.stderr)
    return 0 if report["ok"] else 1


def run_endpoint_remove(args) -> int:
    from store import StoreError

    try:
        open_store(args.db).delete_endpoint(args.name)
    except StoreError as error:
        return fail(str(error))
    print(f"endpoint {args.name} removed")
    return 0


def run_price_set(args) -> int:
    from store import StoreError

    try:
        open_store(args.db).set_price(args.model, args.input, args.output)
    except StoreError as error:
        return fail(str(error))
    print(f"price {args.model}: ${args.input:g} / 1M input, ${args.output:g} / 1M output")
    return 0


def run_price_list(args) -> int:
    prices = open_store(args.db).list_prices()
    if args.json:
        print(json.dumps(prices))
        return 0
    for p in prices:
        print(f"{p['pattern']}\t${p['input_per_m']:g} in\t${p['output_per_m']:g} out")
    return 0


def run_price_remove(args) -> int:
    from store import StoreError

    try:
        open_store(args.db).delete_price(args.model)
    except StoreError as error:
        return fail(str(error))
    print(f"price {args.model} removed")
    return 0


def run_prompt_list(args) -> int:
    from runner.prompts import default_names, ensure_versions

    store = open_store(args.db)
    ensure_versions(store, default_names())
    for t in store.list_prompt_templates():
        print(f"{t['name']}\tv{t['version']} of {t['versions']}\t{t['created_at']}")
    return 0


def run_prompt_show(args) -> int:
    from domain.templates import TemplateError
    from runner.prompts import default_text
    from store import StoreError

    store = open_store(args.db)
    try:
        store.ensure_prompt_template(args.name, default_text(args.name))
    except TemplateError:
        pass  # not a default: it may still exist in the database
    try:
        print(store.prompt_template(args.name, args.version)["text"])
    except StoreError as error:
        return fail(str(error))
    return 0


def run_prompt_set(args) -> int:
    from domain.templates import TemplateError
    from runner.prompts import default_text
    from store import StoreError

    store = open_store(args.db)
    try:  # the default stays version 1, so an edit is always a new version after it
        store.ensure_prompt_template(args.name, default_text(args.name))
    except TemplateError:
        pass
    try:
        text = Path(args.file).read_text(encoding="utf-8")
        version = store.save_prompt_template(args.name, text, author="cli")
    except (OSError, StoreError) as error:
        return fail(str(error))
    print(f"prompt {args.name}: version {version}")
    return 0
