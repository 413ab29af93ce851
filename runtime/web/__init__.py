"""The run viewer in the browser (`citeloop serve`, `citeloop show --html`): read-only, over any store.

Needs the `web-ui` extra (Starlette, Jinja2, uvicorn): `pip install 'citeloop[web-ui]'`.
"""

from ._app import DEFAULT_HOST as DEFAULT_HOST
from ._app import DEFAULT_PORT as DEFAULT_PORT
from ._app import check_binding as check_binding
from ._app import create_app as create_app
from ._app import serve as serve
from ._bodies import MAX_BODY_CHARS as MAX_BODY_CHARS
from ._render import export_run as export_run
from ._view import RunPage as RunPage
from ._view import load_run as load_run

__all__ = (
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "MAX_BODY_CHARS",
    "RunPage",
    "check_binding",
    "create_app",
    "export_run",
    "load_run",
    "serve",
)
