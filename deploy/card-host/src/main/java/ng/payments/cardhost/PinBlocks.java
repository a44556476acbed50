package ng.payments.cardhost;

import java.util.HexFormat;

import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/** Opens DE52: an ISO 9564 format 0 PIN block under the zone PIN key (double-length TDES). */
final class PinBlocks {
    private final SecretKeySpec zonePinKey;

    /** @param hexKey K1K2 as 32 hex characters; DESede wants K1K2K1. */
    PinBlocks(String hexKey) {
        if (hexKey == null || !hexKey.matches("[0-9A-Fa-f]{32}")) {
            throw new IllegalArgumentException("CARD_HOST_ZONE_PIN_KEY must be 32 hex characters");
        }
        byte[] k1k2 = HexFormat.of().parseHex(hexKey);
        byte[] k1k2k1 = new byte[24];
        System.arraycopy(k1k2, 0, k1k2k1, 0, 16);
        System.arraycopy(k1k2, 0, k1k2k1, 16, 8);
        zonePinKey = new SecretKeySpec(k1k2k1, "DESede");
    }

    /** The PIN the block holds for this PAN, or null when the block is not a format 0 block. */
    String pinOf(byte[] block, String pan) throws Exception {
        Cipher cipher = Cipher.getInstance("DESede/ECB/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, zonePinKey);
        byte[] clear = cipher.doFinal(block);
        byte[] panBlock = panBlock(pan);
        for (int i = 0; i < 8; i++) clear[i] ^= panBlock[i];
        String digits = HexFormat.of().withUpperCase().formatHex(clear);
        int length = Character.digit(digits.charAt(1), 16);
        if (digits.charAt(0) != '0' || length < 4 || length > 12) return null;
        String pin = digits.substring(2, 2 + length);
        String fill = digits.substring(2 + length);
        return pin.matches("[0-9]+") && fill.matches("F*") ? pin : null;
    }

    /** {@code 0000} and the 12 rightmost PAN digits before the check digit. */
    private static byte[] panBlock(String pan) {
        String digits = "000000000000" + pan.substring(0, Math.max(0, pan.length() - 1));
        return HexFormat.of().parseHex("0000" + digits.substring(digits.length() - 12));
    }
}
