"""The web table: one page that shows a seat's view live, for Telegram (a Mini App), Discord (a link) and at home.

``serve(settings, service, deliveries)`` runs it beside the chat adapters on ``STAMMTISCH_WEB_LISTEN`` (and
ticks the turn timers where no chat adapter runs);
``home(service, game, port)`` is ``stammtisch web``. Modules: :mod:`.server` (routes, credentials,
taps), :mod:`.viewers` (open connections, pushes on every save), :mod:`.watchers` (watchers counted, pages
following the match), :mod:`.home` (the table at home),
:mod:`.tuning` (the limits), :mod:`.bucket` (rates), :mod:`.language` (a refusal's language), ``static/`` (the page: HTML, CSS, JavaScript and the card pictures).
"""

from .home import home
from .serve import serve
from .server import WebServer
from .tuning import Tuning

__all__ = ["WebServer", "Tuning", "home", "serve"]
