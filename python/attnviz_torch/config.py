# SPDX-License-Identifier: GPL-3.0-or-later
"""Model configurations as the engine validates and resolves them (docs/model-spec.md 5,
core/config.cpp, core/attention/options.cpp and each variant's option table), and the
tensors a configuration expects (6.1). A configuration that the engine refuses is refused
here with the same rule, as an InputError; a valid one is returned resolved (every default
filled in), which is what the model reads."""
import math

from .limits import InputError, cut, excerpt, is_int, is_number

INF = math.inf
MAX_MODEL_WEIGHTS = 256 << 20  # besides the embeddings (core/input_limits.h kMaxModelWeights)
MAX_TOKENS = 1024  # positions per sequence (core Model::kMaxTokens)


def _opt(name, kind, default=None, lo=-INF, hi=INF, above=False):
    return {"name": name, "type": kind, "default": default, "min": lo, "max": hi, "above": above}


# Each variant: its options (name, type, default, range), whether its logits are finite
# everywhere (mixable), whether it is logit-based, and whether it uses max_len.
VARIANTS = {
    "dot": {"options": [], "logits": True, "mixable": True, "uses_len": False},
    "dense": {"options": [], "logits": True, "mixable": True, "uses_len": True},
    "random": {"options": [_opt("trainable", "flag", True)], "logits": True, "mixable": True, "uses_len": True},
    "factorized_dense": {"options": [_opt("a", "integer", None, 1, 1 << 20), _opt("b", "integer", None, 1, 1 << 20)],
                         "logits": True, "mixable": True, "uses_len": True},
    "factorized_random": {"options": [_opt("trainable", "flag", True), _opt("k", "integer", 8, 1, 1 << 16)],
                          "logits": True, "mixable": True, "uses_len": True},
    "mixture": {"options": [_opt("components", "variants"), _opt("unweighted", "flag", False)],
                "logits": True, "mixable": True, "uses_len": False},
    "gaussian": {"options": [_opt("offsets", "numbers", None, -1024, 1024),
                             _opt("sigma", "number", 1.0, 0.001, 1024),
                             _opt("normalize", "flag", False), _opt("ratio", "number", 1.0, 0, 1024)],
                 "logits": False, "mixable": True, "uses_len": False},
    "local": {"options": [_opt("window", "integer", 2, 0, 1024)], "logits": True, "mixable": False, "uses_len": False},
    "learned_gaussian": {"options": [_opt("init_mu", "numbers", None, -1024, 1024),
                                     _opt("init_sigma", "number", 1.0, 0.001, 1024)],
                         "logits": True, "mixable": True, "uses_len": False},
}
KINDS = ("encoder_self", "decoder_self", "cross")
MODEL_KEYS = {"arch", "d_model", "heads", "d_ff", "enc_layers", "dec_layers", "max_len", "norm", "bias",
              "share_embeddings", "tie_output", "encoder_self", "decoder_self", "cross", "label",
              "image_size", "channels", "patch", "pool", "classes", "stem"}
VIT_KEYS = ("image_size", "channels", "patch", "pool", "classes", "stem")
CHANNELS = (1, 3)  # values per pixel: grayscale, or colour R, G, B (docs/model-spec.md 3.10)


def _num(x):
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(float(x))


def _range_text(o):
    lo, hi = math.isfinite(o["min"]), math.isfinite(o["max"])
    if lo and hi and not o["above"]:
        return f" between {_num(o['min'])} and {_num(o['max'])}"
    s = ""
    if lo:
        s += (" > " if o["above"] else " >= ") + _num(o["min"])
    if hi:
        s += (" and" if lo else "") + " <= " + _num(o["max"])
    return s


def _in_range(o, x):
    x = float(x)
    low = x > o["min"] if o["above"] else x >= o["min"]
    return math.isfinite(x) and low and x <= o["max"]


def _check(o, v):
    """'' when `v` is a valid value of option `o`, else the rule it breaks."""
    t = o["type"]
    if t == "flag":
        ok, rule = isinstance(v, bool), "must be true or false"
    elif t == "integer":
        ok, rule = is_int(v) and _in_range(o, v), "must be an integer" + _range_text(o)
    elif t == "number":
        ok, rule = is_number(v) and _in_range(o, v), "must be a finite number" + _range_text(o)
    elif t == "numbers":
        ok = isinstance(v, list) and len(v) > 0 and all(is_number(x) and _in_range(o, x) for x in v)
        rule = "must be a non-empty array of finite numbers" + (", each" + _range_text(o) if _range_text(o) else "")
    else:
        ok = isinstance(v, list) and len(v) > 0 and all(isinstance(x, str) for x in v)
        rule = "must be a non-empty array of variant names"
    return "" if ok else f"'{o['name']}' {rule}"


def _canonical(o, v):
    if o["type"] == "number":
        return float(v)
    if o["type"] == "numbers":
        return [int(x) if float(x).is_integer() and abs(x) < 1e9 else float(x) for x in v]
    return v


def _variant(name):
    if name not in VARIANTS:
        raise InputError(f"unknown attention variant '{cut(name)}' (known: {', '.join(VARIANTS)})")
    return VARIANTS[name]


def _block_options(variant, j):
    """The option specs of a block: its variant's, then its mixture components' (first wins)."""
    specs = list(_variant(variant)["options"])
    seen = {o["name"] for o in specs}
    for o in _variant(variant)["options"]:
        if o["type"] != "variants" or not isinstance(j.get(o["name"]), list):
            continue
        for p in j[o["name"]]:
            if isinstance(p, str):
                for po in _variant(p)["options"]:
                    if po["name"] not in seen:
                        seen.add(po["name"])
                        specs.append(po)
    return specs


def _resolve_grid(name, b, parent, grid, cls):
    """The 2D readings' defaults and rules on a vit grid of grid × grid patches
    (docs/model-spec.md 4.4; each variant's resolve in core/attention/)."""
    if name == "factorized_dense":
        a, bl = grid + (1 if cls else 0), grid
        if b.get("a", a) != a or b.get("b", bl) != bl:
            raise InputError(f"'a' and 'b' are fixed by the patch grid of arch \"vit\" (a = {a}, b = {bl} "
                             "here: a score per grid row" + (" and one for the class token" if cls else "")
                             + ", one per column): leave them out")
        b["a"], b["b"] = a, bl
    elif name == "gaussian" or name == "learned_gaussian":
        key = "offsets" if name == "gaussian" else "init_mu"
        b.setdefault(key, [0, -1, 0, 1, -1, 0, 1, 0])  # left, right, above, below
        if len(b[key]) % 2:
            what = "are pairs" if name == "gaussian" else "is pairs"
            raise InputError(f"'{key}' of a {name} block on the patch grid {what} (Δrow, Δcolumn): "
                             f"an even number of numbers, got {len(b[key])}")
        if name == "learned_gaussian" and cls and parent == "mixture":
            raise InputError("learned_gaussian cannot be a mixture component on a vit model with a class "
                             "token (its class-token rule needs -inf logits); use \"pool\": \"mean\"")
    elif name == "local" and b["window"] > grid - 1:
        raise InputError(f"'window' on a grid of {grid}×{grid} patches must be at most {grid - 1} "
                         f"(that already covers every patch), got {b['window']}")


def _resolve_variant(name, b, kind, L, grid=0, cls=False, parent=None):
    if grid and name != "mixture":
        _resolve_grid(name, b, parent or name, grid, cls)
        return
    if name == "factorized_dense":
        has_a, has_b = "a" in b, "b" in b
        if not has_a and not has_b:
            a = 1
            x = 1
            while x * x <= L:
                if L % x == 0:
                    a = x
                x += 1
            b["a"], b["b"] = a, L // a
        elif not has_a:
            if L % b["b"]:
                raise InputError(f"'b' ({b['b']}) must divide max_len ({L})")
            b["a"] = L // b["b"]
        elif not has_b:
            if L % b["a"]:
                raise InputError(f"'a' ({b['a']}) must divide max_len ({L})")
            b["b"] = L // b["a"]
        if b["a"] * b["b"] != L:
            raise InputError(f"a*b ({b['a']}*{b['b']}={b['a'] * b['b']}) must equal max_len ({L})")
    elif name == "mixture":
        if "components" not in b:
            raise InputError('mixture needs \'components\', e.g. ["random", "dot"]')
        seen = set()
        for c in b["components"]:
            info = _variant(c)
            if c == "mixture":
                raise InputError("a mixture cannot contain a mixture")
            if not info["logits"]:
                raise InputError(f"mixture component '{c}' has no logits (only logit-based variants can be mixed)")
            if not info["mixable"]:
                raise InputError(f"mixture component '{c}' cannot be mixed (its logits are -inf outside a window)")
            if c in seen:
                raise InputError(f"mixture component '{c}' appears twice")
            seen.add(c)
            _resolve_variant(c, b, kind, L, grid, cls, "mixture")
    elif name == "gaussian":
        b.setdefault("offsets", [-1, 0] if kind == "decoder_self" else [-1, 1])
    elif name == "learned_gaussian":
        b.setdefault("init_mu", [-1, 0] if kind == "decoder_self" else [-1, 0, 1])


def _block(j, kind, d, model_heads, L, grid=0, cls=False):
    try:
        if not isinstance(j, dict):
            raise InputError("must be a JSON object")
        variant = "dot"
        if "variant" in j:
            if not isinstance(j["variant"], str):
                raise InputError("'variant' must be a string")
            variant = j["variant"]
        info = _variant(variant)
        for o in info["options"]:
            if o["type"] == "variants" and o["name"] in j:
                problem = _check(o, j[o["name"]])
                if problem:
                    raise InputError(problem)
                for n in j[o["name"]]:
                    _variant(n)
        specs = _block_options(variant, j)
        allowed = {"variant", "heads"} | ({"layers"} if kind == "cross" else set()) | {o["name"] for o in specs}
        for k in j:
            if k not in allowed:
                raise InputError(f"option '{cut(k)}' does not apply to variant '{variant}'")
        heads = model_heads
        if "heads" in j:
            h = j["heads"]
            if not is_int(h) or h < 1 or h > 4096:
                raise InputError("'heads' must be an integer between 1 and 4096")
            heads = h
        if d % heads:
            raise InputError(f"heads ({heads}) must divide d_model ({d})")
        top = False
        if "layers" in j:
            if j["layers"] not in ("all", "top"):
                raise InputError("'layers' must be \"all\" or \"top\"")
            top = j["layers"] == "top"
        opts = {}
        for o in specs:
            if o["name"] in j:
                problem = _check(o, j[o["name"]])
                if problem:
                    raise InputError(problem)
                opts[o["name"]] = _canonical(o, j[o["name"]])
            elif o["default"] is not None:
                opts[o["name"]] = _canonical(o, o["default"])
        _resolve_variant(variant, opts, kind, L, grid, cls)
        for o in specs:
            if o["name"] not in opts:
                raise InputError(f"option '{o['name']}' of variant '{variant}' is unresolved")
            opts[o["name"]] = _canonical(o, opts[o["name"]])
            problem = _check(o, opts[o["name"]])
            if problem:
                raise InputError(problem)
        out = dict(opts, variant=variant, heads=heads)
        if kind == "cross":
            out["layers"] = "top" if top else "all"
        return out
    except InputError as e:
        raise InputError(f"{kind}: {e}") from None


def _int(j, key, default, lo, hi):
    if key not in j:
        return default
    v = j[key]
    if not is_int(v):
        raise InputError(f"'{key}' must be an integer, got {excerpt(v)}")
    if v < lo or v > hi:
        raise InputError(f"'{key}' must be between {lo} and {hi}, got {v}")
    return v


def _bool(j, key, default):
    if key not in j:
        return default
    if not isinstance(j[key], bool):
        raise InputError(f"'{key}' must be true or false, got {excerpt(j[key])}")
    return j[key]


def _str(j, key, default):
    if key not in j:
        return default
    if not isinstance(j[key], str):
        raise InputError(f"'{key}' must be a string, got {excerpt(j[key])}")
    return j[key]


def has_cross(c, layer):
    return c["arch"] == "seq2seq" and (c["cross"]["layers"] == "all" or layer == c["dec_layers"] - 1)


def weight_count(c):
    d, f = c["d_model"], c["d_ff"]
    attn, ffn, norms = 4 * d * d + 4 * d, 2 * d * f + d + f, 6 * d
    dec = c.get("dec_layers", 0)
    cross = sum(1 for i in range(dec) if has_cross(c, i))
    vit = patch_values(c) * d + 2 * d + c["classes"] * d if c["arch"] == "vit" else 0
    for i, out in enumerate(c.get("stem", [])):  # 3 × 3 × inputs × outputs, and a bias each
        vit += (9 * stem_inputs(c, i) + 1) * out
    return (c["enc_layers"] + dec) * (attn + ffn + norms) + cross * attn + c["max_len"] * d * 2 + vit


def patch_values(c):
    """vit: the values of one patch vector u_n, P²·K (docs/model-spec.md 3.10 step 2); with a
    stem, the last convolution's channels."""
    return c["stem"][-1] if c.get("stem") else c["patch"] ** 2 * c["channels"]


def stem_inputs(c, i):
    """vit with a stem: the input channels of convolution i (the image's, then the previous')."""
    return c["channels"] if i == 0 else c["stem"][i - 1]


def _stem(j, patch):
    """'stem' (vit): 1 to 5 channel counts of 3 × 3 convolutions of stride 2, patch = 2^len."""
    s = j["stem"]
    if not isinstance(s, list) or not 1 <= len(s) <= 5:
        raise InputError("'stem' must be a list of 1 to 5 channel counts (3 × 3 convolutions of "
                         f"stride 2), got {excerpt(s)}")
    for v in s:
        if not is_int(v) or not 1 <= v <= 1024:
            raise InputError(f"'stem' channel counts must be integers from 1 to 1024, got {excerpt(v)}")
    if patch != 1 << len(s):
        raise InputError(f"a 'stem' of {len(s)} convolution{'' if len(s) == 1 else 's'} of stride 2 makes "
                         f"patches of {1 << len(s)} pixels: 'patch' must be {1 << len(s)}, got {patch}"
                         + ("" if "patch" in j else " (its default)"))
    return list(s)


def positions(c):
    """vit: the encoder's positions N (docs/model-spec.md 3.10): patches, plus the class token."""
    g = c["image_size"] // c["patch"]
    return g * g + (1 if c["pool"] == "cls" else 0)


def _channels(j):
    """'channels' (vit): 1 (grayscale, also when absent: every model made before colour) or 3."""
    if "channels" not in j:
        return 1
    v = j["channels"]
    if not is_int(v):
        raise InputError(f"'channels' must be an integer, got {excerpt(v)}")
    if v not in CHANNELS:
        raise InputError(f"'channels' must be 1 (grayscale) or 3 (colour: R, G, B), got {v}")
    return v


def _resolve_vit(j):
    for k in ("dec_layers", "share_embeddings", "tie_output", "decoder_self", "cross"):
        if k in j:
            raise InputError(f"arch \"vit\" has no decoder and no vocabulary: remove '{k}'")
    c = {"arch": "vit"}
    c["d_model"] = _int(j, "d_model", 64, 1, 1 << 16)
    c["heads"] = _int(j, "heads", 4, 1, 4096)
    if c["d_model"] % c["heads"]:
        raise InputError(f"heads ({c['heads']}) must divide d_model ({c['d_model']})")
    c["d_ff"] = _int(j, "d_ff", 4 * c["d_model"], 1, 1 << 20)
    c["enc_layers"] = _int(j, "enc_layers", 4, 1, 256)
    c["image_size"] = _int(j, "image_size", 28, 1, 1024)
    c["channels"] = _channels(j)
    c["patch"] = _int(j, "patch", 4, 1, c["image_size"])
    if c["image_size"] % c["patch"]:
        raise InputError(f"'patch' ({c['patch']}) must divide 'image_size' ({c['image_size']})")
    if "stem" in j:  # absent in every model made before the stem
        c["stem"] = _stem(j, c["patch"])
    pool = _str(j, "pool", "cls")
    if pool not in ("cls", "mean"):
        raise InputError(f"'pool' must be \"cls\" or \"mean\", got \"{cut(pool)}\"")
    c["pool"] = pool
    c["classes"] = _int(j, "classes", 10, 2, 65536)
    n = positions(c)
    if n > MAX_TOKENS:
        raise InputError(f"image_size {c['image_size']} with patch {c['patch']} gives {n} positions; "
                         f"the engine takes at most {MAX_TOKENS} (a larger 'patch')")
    c["max_len"] = _int(j, "max_len", n, 1, 8192)
    if c["max_len"] != n:
        raise InputError(f"'max_len' of a vit model is its number of positions ({n} for this image_size, "
                         f"patch and pool), got {c['max_len']}: leave it out")
    norm = _str(j, "norm", "pre")
    if norm not in ("pre", "post"):
        raise InputError(f"'norm' must be \"pre\" or \"post\", got \"{cut(norm)}\"")
    c["norm"] = norm
    c["bias"] = _bool(j, "bias", True)
    g = c["image_size"] // c["patch"]
    c["encoder_self"] = _block(j.get("encoder_self", {}), "encoder_self", c["d_model"], c["heads"], n,
                               g, c["pool"] == "cls")
    return c


def resolve(j):
    """A configuration (parsed JSON) -> the resolved configuration dict; InputError naming
    the key and the rule otherwise (ModelConfig::fromJson)."""
    if not isinstance(j, dict):
        raise InputError("model configuration must be a JSON object")
    for k in j:
        if k not in MODEL_KEYS:
            raise InputError(f"unknown configuration key '{cut(k)}'")
    if "label" in j and not isinstance(j["label"], str):
        raise InputError("'label' must be a string")
    arch = _str(j, "arch", "seq2seq")
    if arch == "vit":
        c = _resolve_vit(j)
        _check_weights(c)
        return c
    if arch not in ("seq2seq", "decoder"):
        raise InputError(f"'arch' must be \"seq2seq\", \"decoder\" or \"vit\", got \"{cut(arch)}\"")
    for k in VIT_KEYS:
        if k in j:
            raise InputError(f"'{k}' belongs to arch \"vit\" (images), not \"{arch}\"")
    c = {"arch": arch}
    c["d_model"] = _int(j, "d_model", 64, 1, 1 << 16)
    c["heads"] = _int(j, "heads", 4, 1, 4096)
    if c["d_model"] % c["heads"]:
        raise InputError(f"heads ({c['heads']}) must divide d_model ({c['d_model']})")
    c["d_ff"] = _int(j, "d_ff", 4 * c["d_model"], 1, 1 << 20)
    c["enc_layers"] = _int(j, "enc_layers", 2 if arch == "seq2seq" else 0, 0, 256)
    c["dec_layers"] = _int(j, "dec_layers", 2, 1, 256)
    if arch == "decoder" and c["enc_layers"] != 0:
        raise InputError("arch \"decoder\" has no encoder: 'enc_layers' must be 0 or absent")
    if arch == "seq2seq" and c["enc_layers"] < 1:
        raise InputError("arch \"seq2seq\" needs 'enc_layers' of at least 1")
    c["max_len"] = _int(j, "max_len", 64, 2, 8192)
    norm = _str(j, "norm", "pre")
    if norm not in ("pre", "post"):
        raise InputError(f"'norm' must be \"pre\" or \"post\", got \"{cut(norm)}\"")
    c["norm"] = norm
    c["bias"] = _bool(j, "bias", True)
    c["share_embeddings"] = _bool(j, "share_embeddings", False)
    c["tie_output"] = _bool(j, "tie_output", True)
    args = (c["d_model"], c["heads"], c["max_len"])
    c["decoder_self"] = _block(j.get("decoder_self", {}), "decoder_self", *args)
    if arch == "seq2seq":
        c["encoder_self"] = _block(j.get("encoder_self", {}), "encoder_self", *args)
        c["cross"] = _block(j.get("cross", {}), "cross", *args)
    elif "encoder_self" in j or "cross" in j:
        raise InputError("arch \"decoder\" has no encoder: remove 'encoder_self' and 'cross'")
    _check_weights(c)
    return c


def _check_weights(c):
    n = weight_count(c)
    if n > MAX_MODEL_WEIGHTS:
        raise InputError(f"this configuration has {n // 1000000} million weights besides the embeddings "
                         f"(needs ~{4.0 * n / 1e9:.1f} GB to hold); the limit is "
                         f"{MAX_MODEL_WEIGHTS // 1000000} million (docs/limits.md)")


def uses_max_len(block):
    v = block["variant"]
    if v == "mixture":
        return any(VARIANTS[p]["uses_len"] for p in block["components"])
    return VARIANTS[v]["uses_len"]


def max_source_tokens(c):
    bound = uses_max_len(c["encoder_self"]) or uses_max_len(c["cross"])
    return (min(c["max_len"], MAX_TOKENS) if bound else MAX_TOKENS) - 1


def max_target_tokens(c):
    bound = uses_max_len(c["decoder_self"]) or (c["arch"] == "seq2seq" and uses_max_len(c["cross"]))
    return (min(c["max_len"], MAX_TOKENS) if bound else MAX_TOKENS) - 1


def _variant_tensors(v, b, d, h, L, bias, grid=False):
    """grid: a vit block, whose local and learned_gaussian are 2D (docs/model-spec.md 4.4)."""
    dk = d // h
    if v == "dot":
        out = {"q_proj.weight": [d, d], "k_proj.weight": [d, d]}
        if bias:
            out.update({"q_proj.bias": [d], "k_proj.bias": [d]})
        return out
    if v == "dense":
        return {"dense.w1.weight": [h, dk, d], "dense.w1.bias": [h, dk],
                "dense.w2.weight": [h, L, dk], "dense.w2.bias": [h, L]}
    if v == "random":
        return {"random.r": [h, L, L]}
    if v == "factorized_dense":
        a, bb = b["a"], b["b"]
        return {"fdense.w1.weight": [h, dk, d], "fdense.w1.bias": [h, dk], "fdense.wa.weight": [h, a, dk],
                "fdense.wa.bias": [h, a], "fdense.wb.weight": [h, bb, dk], "fdense.wb.bias": [h, bb]}
    if v == "factorized_random":
        return {"frandom.r1": [h, L, b["k"]], "frandom.r2": [h, L, b["k"]]}
    if v == "mixture":
        out = {} if b["unweighted"] else {"mix.alpha": [len(b["components"])]}
        for p in b["components"]:
            out.update(_variant_tensors(p, b, d, h, L, bias, grid))
        return out
    if v == "local":
        k = 2 * b["window"] + 1
        return {"local.logits": [h, k * k if grid else k]}
    if v == "learned_gaussian":
        return {"lgauss.mu_shift": [h, 2] if grid else [h], "lgauss.log_sigma_shift": [h]}
    return {}  # gaussian


def expected_tensors(c, vs, vt):
    """{name: shape} of every tensor a model of resolved configuration `c` with vocabularies
    of vs and vt tokens has (docs/model-spec.md 6.1), no more and no fewer."""
    d, f, L, bias = c["d_model"], c["d_ff"], c["max_len"], c["bias"]
    seq2seq = c["arch"] == "seq2seq"
    vit = c["arch"] == "vit"
    out = {}
    if vit:
        for i, o in enumerate(c.get("stem", [])):
            out[f"stem.{i}.weight"], out[f"stem.{i}.bias"] = [o, 9 * stem_inputs(c, i)], [o]
        out["patch_embed.weight"], out["patch_embed.bias"] = [d, patch_values(c)], [d]
        if c["pool"] == "cls":
            out["cls_token"] = [1, d]
        out["pos_embed"] = [L, d]
        out["head.weight"], out["head.bias"] = [c["classes"], d], [c["classes"]]
    elif seq2seq:
        out["src_embed.weight"] = [vs, d]
    if not vit:
        if not (seq2seq and c["share_embeddings"]):
            out["tgt_embed.weight"] = [vt, d]
        if not c["tie_output"]:
            out["generator.weight"] = [vt, d]
        out["generator.bias"] = [vt]

    def norm(p):
        out[p + ".weight"], out[p + ".bias"] = [d], [d]

    def block(p, kind):
        b = c[kind]
        for k, s in _variant_tensors(b["variant"], b, d, b["heads"], L, bias, vit).items():
            out[p + "." + k] = s
        out[p + ".v_proj.weight"], out[p + ".out_proj.weight"] = [d, d], [d, d]
        if bias:
            out[p + ".v_proj.bias"], out[p + ".out_proj.bias"] = [d], [d]

    def ffn(p):
        out.update({p + ".linear1.weight": [f, d], p + ".linear1.bias": [f],
                    p + ".linear2.weight": [d, f], p + ".linear2.bias": [d]})
    for i in range(c["enc_layers"]):
        p = f"encoder.layers.{i}"
        norm(p + ".norm1")
        block(p + ".self_attn", "encoder_self")
        norm(p + ".norm2")
        ffn(p + ".ffn")
    for i in range(c.get("dec_layers", 0)):
        p = f"decoder.layers.{i}"
        norm(p + ".norm1")
        block(p + ".self_attn", "decoder_self")
        if has_cross(c, i):
            norm(p + ".norm2")
            block(p + ".cross_attn", "cross")
        norm(p + ".norm3")
        ffn(p + ".ffn")
    if c["norm"] == "pre":
        if seq2seq or vit:
            norm("encoder.norm")
        if not vit:
            norm("decoder.norm")
    return out
