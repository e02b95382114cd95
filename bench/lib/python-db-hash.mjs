// The Python reference of get_dict_hash and load_db_artifact, written from
// ../shared/reference/db-hash.md §1, for the benches that compare with it.
export const PYTHON_DB_HASH = String.raw`
import hashlib, json, statistics, sys, time
from pathlib import Path

ORDER_INDEPENDENT = {"standby_list", "notifications", "bookings", "system_accounts",
                     "group_memberships", "asset_recoveries"}

def normalize_for_comparison(value):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = normalize_for_comparison(item)
            if key in ORDER_INDEPENDENT and isinstance(item, list):
                item = sorted(item, key=lambda e: json.dumps(e, sort_keys=True, default=str))
            out[key] = item
        return out
    if isinstance(value, list):
        return [normalize_for_comparison(item) for item in value]
    if isinstance(value, float) and value == value and value not in (float("inf"), float("-inf")):
        return int(value) if value.is_integer() else value
    if isinstance(value, str) and value.strip().lower() in ("none", "null"):
        return None
    return value

def get_dict_hash(obj):
    if isinstance(obj, dict):
        obj = {k: v for k, v in obj.items() if k != "session"}
    text = json.dumps(normalize_for_comparison(obj), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()

def load(root, db_path):
    p = Path(root) / (db_path[:-5] if db_path.endswith(".json") else db_path)
    if p.with_name(p.name + ".json").is_file():
        with open(p.with_name(p.name + ".json")) as f:
            return json.load(f)
    return {shard.stem: json.load(open(shard)) for shard in sorted(p.glob("*.json"))}
`;
