"""Drives certbot's Cloudflare DNS client (the class its dns-01 authenticator uses) against the API
named by CLOUDFLARE_API_URL, which python-cloudflare (the library the plugin is built on) honours.

usage: drive_certbot.py add|del <domain> <record name> <content>
credentials: ZP_TOKEN, or ZP_EMAIL and ZP_KEY (an API token, or an e-mail and global key)
"""
import logging
import os
import sys

from certbot_dns_cloudflare._internal.dns_cloudflare import _CloudflareClient

logging.basicConfig(level=logging.DEBUG, stream=sys.stderr, format="%(name)s: %(message)s")

action, domain, name, content = sys.argv[1:5]
# python-cloudflare falls back to the real API when the variable is empty: never let a test go there
if not os.environ.get("CLOUDFLARE_API_URL", "").startswith("http://127.0.0.1:"):
    sys.exit("CLOUDFLARE_API_URL must name the local API (http://127.0.0.1:<port>/client/v4)")
if os.environ.get("ZP_TOKEN"):
    client = _CloudflareClient(api_token=os.environ["ZP_TOKEN"])
else:
    client = _CloudflareClient(email=os.environ["ZP_EMAIL"], api_key=os.environ["ZP_KEY"])

if action == "add":
    # the TTL certbot's authenticator uses
    client.add_txt_record(domain, name, content, 120)
elif action == "del":
    client.del_txt_record(domain, name, content)
else:
    sys.exit(f"unknown action {action}")
print("ok")
