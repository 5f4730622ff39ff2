package io.herald.platform.secrets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class CredentialCipherTest {

    private static final byte[] KEY_A = key(1);
    private static final byte[] KEY_B = key(2);
    private static final byte[] SECRET = "{\"accessToken\":\"t0k3n\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void ciphertextsNameTheKeyThatSealedThem() {
        CredentialCipher cipher = new CredentialCipher(List.of(KEY_B, KEY_A));
        byte[] sealed = cipher.encrypt(SECRET, "acme/fb/1");

        assertThat(cipher.primaryKeyId()).isEqualTo(CredentialCipher.keyId(KEY_B));
        assertThat(Arrays.copyOfRange(sealed, 0, 3)).containsExactly('H', 'K', 1);
        assertThat(cipher.underPrimaryKey(sealed)).isTrue();
        assertThat(cipher.decrypt(sealed, "acme/fb/1")).isEqualTo(SECRET);
        assertThat(new String(sealed, StandardCharsets.ISO_8859_1)).doesNotContain("t0k3n");
    }

    @Test
    void everyConfiguredKeyDecryptsAndTheFirstEncrypts() {
        byte[] underA = new CredentialCipher(KEY_A).encrypt(SECRET, "acme/fb/1");
        CredentialCipher rotated = new CredentialCipher(List.of(KEY_B, KEY_A));

        assertThat(rotated.decrypt(underA, "acme/fb/1")).isEqualTo(SECRET);
        assertThat(rotated.underPrimaryKey(underA)).isFalse();
        byte[] resealed = rotated.reseal(underA, "acme/fb/1");
        assertThat(rotated.underPrimaryKey(resealed)).isTrue();
        assertThat(new CredentialCipher(KEY_B).decrypt(resealed, "acme/fb/1")).isEqualTo(SECRET);
    }

    @Test
    void aRemovedKeyNoLongerDecryptsAndTheErrorNamesOnlyItsId() {
        byte[] underA = new CredentialCipher(KEY_A).encrypt(SECRET, "acme/fb/1");

        assertThatThrownBy(() -> new CredentialCipher(KEY_B).decrypt(underA, "acme/fb/1"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(CredentialCipher.keyId(KEY_A))
                .hasNoCause();
    }

    @Test
    void ciphertextsOfTheSingleKeyEraStillDecrypt() throws Exception {
        // the earlier form: nonce and sealed bytes, no header, the row as the only associated data
        byte[] nonce = new byte[12];
        new SecureRandom().nextBytes(nonce);
        Cipher gcm = Cipher.getInstance("AES/GCM/NoPadding");
        gcm.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY_A, "AES"), new GCMParameterSpec(128, nonce));
        gcm.updateAAD("acme/fb/1".getBytes(StandardCharsets.UTF_8));
        byte[] sealed = gcm.doFinal(SECRET);
        byte[] legacy = ByteBuffer.allocate(12 + sealed.length).put(nonce).put(sealed).array();

        CredentialCipher rotated = new CredentialCipher(List.of(KEY_B, KEY_A));
        assertThat(rotated.decrypt(legacy, "acme/fb/1")).isEqualTo(SECRET);
        assertThat(rotated.underPrimaryKey(legacy)).isFalse();
        assertThat(rotated.underPrimaryKey(rotated.reseal(legacy, "acme/fb/1"))).isTrue();
    }

    @Test
    void aCiphertextMovedToAnotherRowOrGivenAnotherKeyIdDoesNotDecrypt() {
        CredentialCipher cipher = new CredentialCipher(List.of(KEY_B, KEY_A));
        byte[] sealed = cipher.encrypt(SECRET, "acme/fb/1");

        assertThatThrownBy(() -> cipher.decrypt(sealed, "acme/fb/2")).isInstanceOf(IllegalStateException.class);
        byte[] relabelled = sealed.clone();
        System.arraycopy(java.util.HexFormat.of().parseHex(CredentialCipher.keyId(KEY_A)), 0, relabelled, 3, 4);
        assertThatThrownBy(() -> cipher.decrypt(relabelled, "acme/fb/1")).isInstanceOf(IllegalStateException.class);
    }

    private static byte[] key(int seed) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) seed);
        return key;
    }
}
