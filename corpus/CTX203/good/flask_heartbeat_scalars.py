# expect: none
"""A discovery service keeps, per reporting process, the values its heartbeat
carried: strings and ints read out of the query string and a timestamp. None of them
is the request proxy or its `args` mapping, so no request outlives its response."""
import datetime

from flask import Flask, jsonify, request

app = Flask(__name__)
HEARTBEATS = {}
LAST_VERSION = {}


@app.route("/heartbeat", methods=["GET"])
def record_heartbeat():
    address = request.args.get("api_address")
    pid = request.args.get("pid", type=int)
    version = request.args.get("version", "1.0.0")
    if address:
        HEARTBEATS[address] = {
            "pid": pid,
            "version": version,
            "agent": request.headers.get("User-Agent", "").lower(),
            "seen": datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S"),
        }
        LAST_VERSION[address] = version
    return jsonify({"status": "success"})
