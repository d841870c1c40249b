"""Small HTTP helpers for the release tool."""
import json
import urllib.request

DEFAULT_HEADERS = {"User-Agent": "release-tool/1.4", "Accept": "application/json"}


def build_request(url, headers=None):
    merged = dict(DEFAULT_HEADERS)
    if headers:
        merged.update(headers)
    return urllib.request.Request(url, headers=merged)


def fetch_text(url, headers=None):
    request = build_request(url, headers)
    with urllib.request.urlopen(request) as response:
        charset = response.headers.get_content_charset() or "utf-8"
        return response.read().decode(charset)


def fetch_json(url, headers=None):
    text = fetch_text(url, headers)
    return json.loads(text)


def latest_release(owner, repo):
    url = f"https://api.example.com/repos/{owner}/{repo}/releases/latest"
    data = fetch_json(url)
    return data["tag_name"], data["published_at"]


def release_assets(owner, repo, tag):
    url = f"https://api.example.com/repos/{owner}/{repo}/releases/tags/{tag}"
    data = fetch_json(url)
    return [(a["name"], a["size"]) for a in data.get("assets", [])]


def download(url, path, headers=None):
    request = build_request(url, headers)
    with urllib.request.urlopen(request) as response, open(path, "wb") as out:
        while True:
            chunk = response.read(65536)
            if not chunk:
                break
            out.write(chunk)
    return path


def main(argv):
    owner, repo = argv[1], argv[2]
    tag, when = latest_release(owner, repo)
    print(f"{owner}/{repo} {tag} ({when})")
    for name, size in release_assets(owner, repo, tag):
        print(f"  {name:40} {size:>12,}")
    return 0
