// JOSE over OpenSSL (src/detail/jose.hpp), shared by the OAuth client's
// signer and the resource server's checks: what the signer makes verifies,
// and the hostile shapes do not (a flipped bit, an ECDSA signature of the
// wrong length, a point off its curve, a key of another type or curve, a
// short RSA modulus, base64url that is not strict), leaving nothing in
// OpenSSL's error queue.

#include "detail/jose.hpp"

#include "jwt_test_keys.hpp"

#include <mcp/base64.hpp>

#include <gtest/gtest.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <string>

namespace mcp::test {
namespace {

namespace jose = mcp::detail::jose;
using mcp::detail::oauth::signing_key;

const boost::json::object some_claims{{"sub", "user-1"}, {"iat", 1700000000}};

// A new EC key on `curve` (P-256, P-384, P-521), to sign with.
signing_key ec_signing_key(const char* curve) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen(curve), &EVP_PKEY_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  EXPECT_TRUE(key && bio && PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1);
  char* data = nullptr;
  const auto size = BIO_get_mem_data(bio.get(), &data);
  return signing_key::from_pem(std::string_view(data, static_cast<std::size_t>(size)), "test");
}

std::string sign(const signing_key& key, std::string_view alg) {
  return key.sign_jwt({{"typ", "JWT"}}, some_claims, alg, "test");
}

// The same JWK with `member` replaced.
boost::json::object with(boost::json::object jwk, std::string_view member, std::string value) {
  jwk[member] = std::move(value);
  return jwk;
}

class Jose : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    rsa = new signing_key(rsa_signing_key(2048));
    p256 = new signing_key(signing_key::generate_p256());
  }
  static void TearDownTestSuite() {
    delete rsa;
    delete p256;
  }
  // Whatever a test does, OpenSSL's error queue is left empty.
  void TearDown() override { EXPECT_EQ(ERR_peek_error(), 0u) << "an OpenSSL error was left in the queue"; }

  inline static signing_key* rsa = nullptr;
  inline static signing_key* p256 = nullptr;
};

TEST_F(Jose, WhatSigningKeySignsVerifiesWithItsPublicJwk) {
  const auto p384 = ec_signing_key("P-384");
  const auto p521 = ec_signing_key("P-521");
  const std::pair<const signing_key*, const char*> cases[] = {
      {rsa, "RS256"}, {rsa, "RS384"}, {rsa, "RS512"}, {rsa, "PS384"}, {rsa, "PS512"},
      {p256, "ES256"}, {&p384, "ES384"}, {&p521, "ES512"}};
  for (const auto& [key, alg] : cases) {
    const auto text = sign(*key, alg);
    const auto jws = jose::decode_compact(text);
    ASSERT_TRUE(jws) << alg;
    EXPECT_EQ(jws->header.at("alg").as_string(), alg);
    EXPECT_EQ(jws->signing_input, text.substr(0, text.rfind('.')));
    EXPECT_TRUE(boost::json::parse(jws->payload).as_object() == some_claims);
    const auto public_key = jose::import_public_jwk(key->public_jwk());
    ASSERT_TRUE(public_key) << alg;
    EXPECT_TRUE(jose::verify(*jws, alg, public_key.get())) << alg;
    if (std::string_view(alg).starts_with("ES")) {
      EXPECT_EQ(jws->signature.size(), 2 * jose::algorithm_of(alg)->ec_size);
    }
  }
}

TEST_F(Jose, Ps256VerifiesAndIsNotRs256) {
  const auto key = jose::import_public_jwk(rsa->public_jwk());
  const auto first = sign(*rsa, "PS256");
  const auto second = sign(*rsa, "PS256");
  EXPECT_NE(first, second) << "PSS signatures are salted";
  for (const auto& text : {first, second}) {
    const auto jws = jose::decode_compact(text);
    ASSERT_TRUE(jws);
    EXPECT_TRUE(jose::verify(*jws, "PS256", key.get()));
    EXPECT_FALSE(jose::verify(*jws, "RS256", key.get()));
  }
  const auto rs256 = sign(*rsa, "RS256");
  EXPECT_FALSE(jose::verify(*jose::decode_compact(rs256), "PS256", key.get()));
}

TEST_F(Jose, OneFlippedBitDoesNotVerify) {
  for (const auto& [key, alg] : {std::pair{rsa, "RS256"}, std::pair{rsa, "PS256"}, std::pair{p256, "ES256"}}) {
    const auto public_key = jose::import_public_jwk(key->public_jwk());
    const auto text = sign(*key, alg);
    const auto good = *jose::decode_compact(text);
    ASSERT_TRUE(jose::verify(good, alg, public_key.get()));
    const std::size_t last = 8 * good.signature.size() - 1;
    for (const std::size_t bit : {std::size_t{0}, std::size_t{7}, std::size_t{100}, last}) {
      auto bad = good;
      bad.signature[bit / 8] = static_cast<char>(bad.signature[bit / 8] ^ (1 << (bit % 8)));
      EXPECT_FALSE(jose::verify(bad, alg, public_key.get())) << alg << " signature bit " << bit;
    }
    std::string input(good.signing_input);
    input.back() = static_cast<char>(input.back() ^ 1);
    auto bad = good;
    bad.signing_input = input;
    EXPECT_FALSE(jose::verify(bad, alg, public_key.get())) << alg << " signing input";
  }
}

TEST_F(Jose, AnEs256SignatureOfTheWrongLengthIsRefused) {
  const auto public_key = jose::import_public_jwk(p256->public_jwk());
  const auto text = sign(*p256, "ES256");
  const auto good = *jose::decode_compact(text);
  ASSERT_EQ(good.signature.size(), 64u);
  ASSERT_TRUE(jose::verify(good, "ES256", public_key.get()));
  const std::string wrong[] = {std::string(1, '\0') + good.signature, good.signature + std::string(1, '\0'),
                               good.signature.substr(1), good.signature.substr(0, 63), "", good.signature + good.signature,
                               jose::jws_to_der(good.signature, 32)};  // OpenSSL's DER is not JWS's form
  for (const auto& signature : wrong) {
    auto bad = good;
    bad.signature = signature;
    EXPECT_FALSE(jose::verify(bad, "ES256", public_key.get())) << signature.size() << " bytes";
  }
  EXPECT_EQ(jose::jws_to_der(good.signature.substr(1), 32), "");
  EXPECT_EQ(jose::der_to_jws("not DER", 32), "");
}

TEST_F(Jose, EcdsaSignaturesConvertBetweenDerAndJwsBothWays) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_EC_gen("P-256"), &EVP_PKEY_free);
  for (int i = 0; i < 20; ++i) {  // some with a short r or s (a leading zero byte), most likely
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    const std::string input = "input " + std::to_string(i);
    unsigned char der[80];
    std::size_t size = sizeof der;
    ASSERT_EQ(EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()), 1);
    ASSERT_EQ(EVP_DigestSign(ctx.get(), der, &size, reinterpret_cast<const unsigned char*>(input.data()), input.size()), 1);
    const std::string original(reinterpret_cast<const char*>(der), size);
    const auto jws = jose::der_to_jws(original, 32);
    EXPECT_EQ(jws.size(), 64u);
    EXPECT_EQ(jose::jws_to_der(jws, 32), original);
  }
}

TEST_F(Jose, AnEcKeyWhosePointIsNotOnItsCurveIsRefused) {
  const auto jwk = p256->public_jwk();
  ASSERT_TRUE(jose::import_public_jwk(jwk));
  auto y = *base64url_decode(jwk.at("y").as_string());
  y.back() = static_cast<char>(y.back() ^ 1);
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "y", base64url_encode(y))));
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "x", base64url_encode(std::string(32, '\xff')))));  // beyond p
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "y", base64url_encode(std::string(33, '\1')))));   // too long
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "crv", "P-384")));  // a P-256 point is not on P-384
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "crv", "secp256k1")));
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "x", "")));
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "x", "a=")));
  auto no_y = jwk;
  no_y.erase("y");
  EXPECT_FALSE(jose::import_public_jwk(no_y));
}

TEST_F(Jose, AKeyOfAnotherTypeOrCurveOrAnAlgorithmNotListedDoesNotVerify) {
  const auto ec_key = jose::import_public_jwk(p256->public_jwk());
  const auto rsa_key = jose::import_public_jwk(rsa->public_jwk());
  const auto rs256 = sign(*rsa, "RS256");
  EXPECT_FALSE(jose::verify(*jose::decode_compact(rs256), "RS256", ec_key.get()));
  const auto es256 = sign(*p256, "ES256");
  const auto es = *jose::decode_compact(es256);
  EXPECT_FALSE(jose::verify(es, "ES256", rsa_key.get()));
  EXPECT_FALSE(jose::verify(es, "ES384", ec_key.get())) << "ES384 is P-384";
  EXPECT_FALSE(jose::verify(es, "ES256", nullptr));
  for (const char* alg : {"none", "HS256", "HS512", "EdDSA", "RS1", "es256", ""}) {
    EXPECT_FALSE(jose::algorithm_of(alg)) << alg;
    EXPECT_FALSE(jose::verify(es, alg, ec_key.get())) << alg;
  }
}

TEST_F(Jose, RsaKeysUnder2048BitsAndMalformedOnesAreRefused) {
  const auto jwk = rsa->public_jwk();
  EXPECT_TRUE(jose::import_public_jwk(jwk));
  // Padding that completes the last group, as some issuers write it, is read.
  const auto n = std::string(jwk.at("n").as_string());
  ASSERT_EQ(n.size() % 4, 2u);
  EXPECT_TRUE(jose::import_public_jwk(with(jwk, "n", n + "==")));
  EXPECT_FALSE(jose::import_public_jwk(rsa_signing_key(1024).public_jwk()));
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "e", base64url_encode("\x01\x00\x00"))));  // even
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "n", "a=")));
  EXPECT_FALSE(jose::import_public_jwk(with(jwk, "kty", "oct")));
  auto no_e = jwk;
  no_e.erase("e");
  EXPECT_FALSE(jose::import_public_jwk(no_e));
  auto numeric = jwk;
  numeric["e"] = 65537;
  EXPECT_FALSE(jose::well_formed_jwk(numeric));
  EXPECT_FALSE(jose::import_public_jwk(numeric));
}

TEST_F(Jose, TheCompactSerializationIsThreeSegmentsOfStrictBase64url) {
  const auto text = sign(*p256, "ES256");
  ASSERT_TRUE(jose::decode_compact(text));
  const auto header = text.substr(0, text.find('.'));
  const auto tail = text.substr(text.find('.'));
  for (const std::string& bad : {std::string(), std::string("."), std::string(".."), text + ".", header + ".e30",
                                text + "=", header + "=" + tail, "W10" + tail /* [] */, "e30x" + tail,
                                "eyJ" + tail /* unused bits set */, header + ".e+0" + tail.substr(tail.find('.', 1))}) {
    EXPECT_FALSE(jose::decode_compact(bad)) << bad;
  }
  // No signature is still the compact serialization (of `alg: none`).
  const auto unsigned_jws = jose::decode_compact(header + ".e30.");
  ASSERT_TRUE(unsigned_jws);
  EXPECT_EQ(unsigned_jws->signature, "");
}

}  // namespace
}  // namespace mcp::test
