"""The browser table of ``pdk serve``: the FastAPI app (``server``) and the page it ships
(``static/``: plain HTML, CSS and JavaScript modules, package data, no build step)."""
