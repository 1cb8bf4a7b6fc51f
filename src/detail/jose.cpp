#include "jose.hpp"

#include <mcp/base64.hpp>

#include <boost/json/parse.hpp>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <algorithm>
#include <array>

namespace mcp::detail::jose {

namespace {

template <class T, void (*Free)(T*)>
struct freer {
  void operator()(T* p) const noexcept { Free(p); }
};
using bignum = std::unique_ptr<BIGNUM, freer<BIGNUM, BN_free>>;
using ecdsa_sig = std::unique_ptr<ECDSA_SIG, freer<ECDSA_SIG, ECDSA_SIG_free>>;
using param_builder = std::unique_ptr<OSSL_PARAM_BLD, freer<OSSL_PARAM_BLD, OSSL_PARAM_BLD_free>>;
using params = std::unique_ptr<OSSL_PARAM, freer<OSSL_PARAM, OSSL_PARAM_free>>;
using pkey_ctx = std::unique_ptr<EVP_PKEY_CTX, freer<EVP_PKEY_CTX, EVP_PKEY_CTX_free>>;
using md_ctx = std::unique_ptr<EVP_MD_CTX, freer<EVP_MD_CTX, EVP_MD_CTX_free>>;

const unsigned char* bytes(std::string_view s) noexcept { return reinterpret_cast<const unsigned char*>(s.data()); }

bool base64url_char(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

bool unpadded_base64url(std::string_view text) noexcept {
  return text.size() % 4 != 1 && std::ranges::all_of(text, base64url_char);
}

// The JWK members that hold base64url (RFC 7518 section 6, RFC 8037).
constexpr std::array<std::string_view, 11> encoded_members = {"n", "e", "d", "p", "q", "dp", "dq", "qi", "x", "y", "k"};

// The curves of RFC 7518 section 6.2.1.1, by OpenSSL's names, and their sizes.
struct curve_name {
  std::string_view crv;
  const char* group;
  std::size_t size;
};
constexpr std::array<curve_name, 3> curves = {
    {{"P-256", "prime256v1", 32}, {"P-384", "secp384r1", 48}, {"P-521", "secp521r1", 66}}};

// A member well_formed_jwk accepted, decoded: padding is dropped and, as
// JOSE libraries do for keys, unused bits in the last character are ignored.
std::optional<std::string> decode_member(const boost::json::object& jwk, std::string_view name) {
  const auto* value = jwk.if_contains(name);
  if (!value || !value->is_string()) return std::nullopt;
  std::string text(value->get_string());
  text.erase(text.find_last_not_of('=') + 1);
  std::ranges::replace(text, '-', '+');
  std::ranges::replace(text, '_', '/');
  text.append((4 - text.size() % 4) % 4, '=');
  return base64_decode(text);
}

bignum to_bignum(std::string_view big_endian) {
  return bignum(BN_bin2bn(bytes(big_endian), static_cast<int>(big_endian.size()), nullptr));
}

// The key `fromdata` makes of `built` for the algorithm `name` (RSA, EC).
EVP_PKEY* from_params(const char* name, OSSL_PARAM_BLD* built) {
  params p(OSSL_PARAM_BLD_to_param(built));
  pkey_ctx ctx(EVP_PKEY_CTX_new_from_name(nullptr, name, nullptr));
  EVP_PKEY* key = nullptr;
  if (!p || !ctx || EVP_PKEY_fromdata_init(ctx.get()) != 1 ||
      EVP_PKEY_fromdata(ctx.get(), &key, EVP_PKEY_PUBLIC_KEY, p.get()) != 1)
    return nullptr;
  return key;
}

EVP_PKEY* import_rsa(const boost::json::object& jwk) {
  const auto n_bytes = decode_member(jwk, "n");
  const auto e_bytes = decode_member(jwk, "e");
  if (!n_bytes || !e_bytes) return nullptr;
  auto n = to_bignum(*n_bytes);
  auto e = to_bignum(*e_bytes);
  // RFC 7518 section 3.3: 2048 bits or more; OpenSSL verifies no more than
  // OPENSSL_RSA_MAX_MODULUS_BITS. An exponent is odd and above 1.
  if (!n || !e || BN_num_bits(n.get()) < 2048 || BN_num_bits(n.get()) > 16384 || !BN_is_odd(e.get()) ||
      BN_is_one(e.get()))
    return nullptr;
  param_builder built(OSSL_PARAM_BLD_new());
  if (!built || OSSL_PARAM_BLD_push_BN(built.get(), OSSL_PKEY_PARAM_RSA_N, n.get()) != 1 ||
      OSSL_PARAM_BLD_push_BN(built.get(), OSSL_PKEY_PARAM_RSA_E, e.get()) != 1)
    return nullptr;
  return from_params("RSA", built.get());
}

EVP_PKEY* import_ec(const boost::json::object& jwk) {
  const auto* crv = jwk.if_contains("crv");
  if (!crv || !crv->is_string()) return nullptr;
  const auto curve = std::ranges::find(curves, std::string_view(crv->get_string()), &curve_name::crv);
  if (curve == curves.end()) return nullptr;
  const auto size = curve->size;
  const auto x = decode_member(jwk, "x");
  const auto y = decode_member(jwk, "y");
  // RFC 7518 section 6.2.1.2 asks for the full size; shorter ones are
  // padded, as other JOSE libraries do.
  if (!x || !y || x->empty() || y->empty() || x->size() > size || y->size() > size) return nullptr;
  // The uncompressed point (SEC 1 section 2.3.3): 04 || x || y.
  std::string point(1 + 2 * size, '\0');
  point[0] = 4;
  std::ranges::copy(*x, point.begin() + 1 + static_cast<std::ptrdiff_t>(size - x->size()));
  std::ranges::copy(*y, point.end() - static_cast<std::ptrdiff_t>(y->size()));
  param_builder built(OSSL_PARAM_BLD_new());
  if (!built || OSSL_PARAM_BLD_push_utf8_string(built.get(), OSSL_PKEY_PARAM_GROUP_NAME, curve->group, 0) != 1 ||
      OSSL_PARAM_BLD_push_octet_string(built.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) != 1)
    return nullptr;
  EVP_PKEY* key = from_params("EC", built.get());
  if (!key) return nullptr;
  // The point is on the curve (the curves have cofactor 1: that is all).
  pkey_ctx check(EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr));
  if (!check || EVP_PKEY_public_check_quick(check.get()) != 1) {
    EVP_PKEY_free(key);
    return nullptr;
  }
  return key;
}

}  // namespace

std::optional<algorithm> algorithm_of(std::string_view alg) noexcept {
  if (alg == "RS256") return algorithm{EVP_sha256(), EVP_PKEY_RSA};
  if (alg == "RS384") return algorithm{EVP_sha384(), EVP_PKEY_RSA};
  if (alg == "RS512") return algorithm{EVP_sha512(), EVP_PKEY_RSA};
  if (alg == "PS256") return algorithm{EVP_sha256(), EVP_PKEY_RSA, true};
  if (alg == "PS384") return algorithm{EVP_sha384(), EVP_PKEY_RSA, true};
  if (alg == "PS512") return algorithm{EVP_sha512(), EVP_PKEY_RSA, true};
  if (alg == "ES256") return algorithm{EVP_sha256(), EVP_PKEY_EC, false, 32};
  if (alg == "ES384") return algorithm{EVP_sha384(), EVP_PKEY_EC, false, 48};
  if (alg == "ES512") return algorithm{EVP_sha512(), EVP_PKEY_EC, false, 66};
  return std::nullopt;
}

std::size_t ec_size(EVP_PKEY* key) noexcept { return static_cast<std::size_t>((EVP_PKEY_get_bits(key) + 7) / 8); }

bool fits(const algorithm& alg, EVP_PKEY* key) noexcept {
  if (!key || EVP_PKEY_get_base_id(key) != alg.key_type) return false;
  return alg.key_type != EVP_PKEY_EC || ec_size(key) == alg.ec_size;
}

std::string der_to_jws(std::string_view der, std::size_t size) {
  const unsigned char* p = bytes(der);
  ecdsa_sig sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())));
  std::string out(2 * size, '\0');
  auto* r = reinterpret_cast<unsigned char*>(out.data());
  if (!sig || BN_bn2binpad(ECDSA_SIG_get0_r(sig.get()), r, static_cast<int>(size)) < 0 ||
      BN_bn2binpad(ECDSA_SIG_get0_s(sig.get()), r + size, static_cast<int>(size)) < 0) {
    ERR_clear_error();
    return {};
  }
  return out;
}

std::string jws_to_der(std::string_view jws, std::size_t size) {
  if (size == 0 || jws.size() != 2 * size) return {};
  auto r = to_bignum(jws.substr(0, size));
  auto s = to_bignum(jws.substr(size));
  ecdsa_sig sig(ECDSA_SIG_new());
  if (!r || !s || !sig || ECDSA_SIG_set0(sig.get(), r.get(), s.get()) != 1) {
    ERR_clear_error();
    return {};
  }
  r.release();  // the signature owns them now
  s.release();
  const int length = i2d_ECDSA_SIG(sig.get(), nullptr);
  if (length <= 0) {
    ERR_clear_error();
    return {};
  }
  std::string der(static_cast<std::size_t>(length), '\0');
  auto* out = reinterpret_cast<unsigned char*>(der.data());
  if (i2d_ECDSA_SIG(sig.get(), &out) != length) {
    ERR_clear_error();
    return {};
  }
  return der;
}

bool well_formed_jwk(const boost::json::object& jwk) noexcept {
  for (const auto member : encoded_members) {
    const auto* value = jwk.if_contains(member);
    if (!value) continue;
    const auto* text = value->if_string();
    if (!text) return false;
    std::string_view encoded(*text);
    // Padding, which RFC 7518 leaves out but some issuers write, only completes a group.
    const auto padded = encoded.find('=');
    if (padded != std::string_view::npos) {
      if (encoded.size() % 4 != 0 || encoded.size() - padded > 2 ||
          encoded.find_first_not_of('=', padded) != std::string_view::npos)
        return false;
      encoded = encoded.substr(0, padded);
    }
    if (!unpadded_base64url(encoded)) return false;
  }
  return true;
}

public_key import_public_jwk(const boost::json::object& jwk) {
  if (!well_formed_jwk(jwk)) return nullptr;
  const auto* kty = jwk.if_contains("kty");
  EVP_PKEY* key = nullptr;
  if (kty && kty->is_string() && kty->get_string() == "RSA") key = import_rsa(jwk);
  else if (kty && kty->is_string() && kty->get_string() == "EC") key = import_ec(jwk);
  if (!key) {
    ERR_clear_error();
    return nullptr;
  }
  return public_key(key, &EVP_PKEY_free);
}

std::optional<compact_jws> decode_compact(std::string_view text) {
  const auto first = text.find('.');
  const auto second = first == std::string_view::npos ? first : text.find('.', first + 1);
  if (second == std::string_view::npos || text.find('.', second + 1) != std::string_view::npos) return std::nullopt;
  auto header_text = base64url_decode(text.substr(0, first));
  auto payload = base64url_decode(text.substr(first + 1, second - first - 1));
  auto signature = base64url_decode(text.substr(second + 1));
  if (!header_text || !payload || !signature) return std::nullopt;
  boost::system::error_code ec;
  auto header = boost::json::parse(*header_text, ec);
  if (ec || !header.is_object()) return std::nullopt;
  compact_jws out;
  out.header = std::move(header.get_object());
  out.payload = std::move(*payload);
  out.signing_input = text.substr(0, second);
  out.signature = std::move(*signature);
  return out;
}

bool verify(const compact_jws& jws, std::string_view alg, EVP_PKEY* key) {
  const auto info = algorithm_of(alg);
  if (!info || !fits(*info, key)) return false;
  std::string der;
  std::string_view signature = jws.signature;
  if (info->key_type == EVP_PKEY_EC) {
    // JWS has r || s, each exactly the curve's size; OpenSSL verifies DER.
    der = jws_to_der(signature, info->ec_size);
    if (der.empty()) return false;
    signature = der;
  }
  md_ctx ctx(EVP_MD_CTX_new());
  EVP_PKEY_CTX* pctx = nullptr;  // owned by ctx
  bool ok = ctx && EVP_DigestVerifyInit(ctx.get(), &pctx, info->digest, nullptr, key) == 1;
  if (ok && info->pss)
    ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1 &&
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1;
  ok = ok && EVP_DigestVerify(ctx.get(), bytes(signature), signature.size(), bytes(jws.signing_input),
                              jws.signing_input.size()) == 1;
  if (!ok) ERR_clear_error();
  return ok;
}

}  // namespace mcp::detail::jose
