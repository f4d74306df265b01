"""Drives dns-lexicon's Cloudflare provider (plain `requests`, its own paging loop) against the API at
argv[1]: the provider has no setting for the endpoint, so the attribute is replaced after creation.

usage: drive_lexicon.py <api base url> <domain> <record name> <content>
credentials: ZP_TOKEN, or ZP_EMAIL and ZP_KEY. Prints one JSON line per step.
"""
import json
import os
import sys

from lexicon.config import ConfigResolver
from lexicon.providers.cloudflare import Provider

base, domain, name, content = sys.argv[1:5]
if not base.startswith("http://127.0.0.1:"):
    sys.exit("the API base must be the local API (http://127.0.0.1:<port>/client/v4)")
if os.environ.get("ZP_TOKEN"):
    auth = {"auth_token": os.environ["ZP_TOKEN"]}
else:
    auth = {"auth_username": os.environ["ZP_EMAIL"], "auth_token": os.environ["ZP_KEY"]}
config = ConfigResolver().with_dict(
    {"provider_name": "cloudflare", "domain": domain, "ttl": 300, "cloudflare": auth}
)
provider = Provider(config)
provider.api_endpoint = base


def step(what, value):
    print(json.dumps({"step": what, "value": value}), flush=True)


provider.authenticate()
step("zone", provider.domain_id)
step("created", provider.create_record("TXT", name, content))
step("listed", provider.list_records("TXT", name))
step("all", len(provider.list_records()))
step("deleted", provider.delete_record(None, "TXT", name, content))
step("after", provider.list_records("TXT", name))
