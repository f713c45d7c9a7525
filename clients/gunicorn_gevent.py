"""The API's gunicorn master with gevent workers: `python -m clients.gunicorn_gevent ARGS`
takes gunicorn's own command line.

gevent must patch the standard library before anything imports ssl, socket or threading:
gunicorn's gevent worker patches only after the master imported them (gunicorn itself, the
app's package through its settings module), which gevent warns about ("Monkey-patching ssl
after ssl has already been imported") and which can deadlock or break TLS clients such as
webhook deliveries. This module patches first, then runs gunicorn's command line
(`gunicorn.app.wsgiapp.run`, what its `gunicorn` console script runs). It lives outside the
`api` package because importing `api` imports the whole app.
"""

from gevent import monkey

monkey.patch_all()

from gunicorn.app.wsgiapp import run  # noqa: E402  (after the patching, on purpose)

if __name__ == "__main__":
    run(prog="gunicorn")
