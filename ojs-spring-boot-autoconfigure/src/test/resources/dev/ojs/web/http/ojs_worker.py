"""An OJS worker and producer written with nothing but Python's standard library.

Usage: ojs_worker.py BASE_URL TOKEN QUEUE EXPECTED JAVA_TYPE PRODUCE

As a worker it fetches jobs from QUEUE until it has acknowledged EXPECTED of them: for
each it sends a heartbeat, then nacks a job whose first argument is odd on its first
attempt and acks every other. As a producer it enqueues PRODUCE jobs of JAVA_TYPE, which a
Java handler runs, and waits until they are completed. It prints one JSON line with what it
did and exits 0, or exits 1 with the reason.
"""
import json
import sys
import time
import urllib.error
import urllib.request

MEDIA_TYPE = "application/openjobspec+json"


class Client:
    def __init__(self, base, token):
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", "Bearer " + self.token)
        request.add_header("Accept", MEDIA_TYPE)
        if data is not None:
            request.add_header("Content-Type", MEDIA_TYPE)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                if response.headers.get("OJS-Version") != "1.0":
                    raise SystemExit("missing OJS-Version header on " + path)
                return response.status, json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read().decode("utf-8"))


def work(client, queue, expected, deadline):
    acked, nacked, beats = [], [], 0
    worker_id = "python-worker"
    while len(acked) < expected:
        if time.time() > deadline:
            raise SystemExit("worker timed out with %d of %d acked" % (len(acked), expected))
        status, body = client.call("POST", "/ojs/v1/workers/fetch", {
            "queues": [queue], "count": 5, "worker_id": worker_id, "visibility_timeout_ms": 60000})
        if status != 200:
            raise SystemExit("fetch answered %d: %s" % (status, body))
        if not body["jobs"]:
            time.sleep(0.05)
            continue
        for job in body["jobs"]:
            status, beat = client.call("POST", "/ojs/v1/workers/heartbeat", {
                "worker_id": worker_id, "active_jobs": [job["id"]], "visibility_timeout_ms": 60000})
            if status != 200 or job["id"] not in beat["jobs_extended"] or beat["state"] != "running":
                raise SystemExit("heartbeat answered %d: %s" % (status, beat))
            beats += 1
            if job["args"][0] % 2 == 1 and job["attempt"] == 1:
                status, nack = client.call("POST", "/ojs/v1/workers/nack", {
                    "job_id": job["id"], "worker_id": worker_id,
                    "error": {"type": "py.error", "message": "odd argument", "details": {"arg": job["args"][0]}}})
                if status != 200 or nack["state"] != "retryable":
                    raise SystemExit("nack answered %d: %s" % (status, nack))
                nacked.append(job["id"])
            else:
                status, ack = client.call("POST", "/ojs/v1/workers/ack", {
                    "job_id": job["id"], "worker_id": worker_id, "result": {"python": True}})
                if status != 200 or ack["state"] != "completed":
                    raise SystemExit("ack answered %d: %s" % (status, ack))
                acked.append(job["id"])
    return acked, nacked, beats


def produce(client, java_type, count, deadline):
    ids = []
    for i in range(count):
        status, body = client.call("POST", "/ojs/v1/jobs", {"type": java_type, "args": ["from-python-%d" % i]})
        if status != 201:
            raise SystemExit("enqueue answered %d: %s" % (status, body))
        ids.append(body["job"]["id"])
    pending = set(ids)
    while pending:
        if time.time() > deadline:
            raise SystemExit("%d jobs for Java not completed" % len(pending))
        for job_id in list(pending):
            status, body = client.call("GET", "/ojs/v1/jobs/" + job_id)
            if status == 200 and body["job"]["state"] == "completed":
                pending.discard(job_id)
        time.sleep(0.05)
    return ids


def main():
    base, token, queue, expected, java_type, count = sys.argv[1:7]
    client = Client(base, token)
    deadline = time.time() + 60
    status, manifest = client.call("GET", "/ojs/manifest")
    if status != 200 or manifest["specversion"] != "1.0":
        raise SystemExit("manifest answered %d: %s" % (status, manifest))
    acked, nacked, beats = work(client, queue, int(expected), deadline)
    produced = produce(client, java_type, int(count), deadline)
    print(json.dumps({"acked": acked, "nacked": nacked, "heartbeats": beats, "produced": produced}))


if __name__ == "__main__":
    try:
        main()
    except SystemExit as failure:
        if failure.code not in (None, 0):
            sys.stderr.write(str(failure.code) + "\n")
            sys.exit(1)
