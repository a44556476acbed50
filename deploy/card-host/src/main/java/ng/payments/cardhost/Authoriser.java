package ng.payments.cardhost;

import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

import org.jpos.iso.ISOMsg;

import ng.payments.cardhost.Ledger.Booking;
import ng.payments.cardhost.Ledger.Kind;

/**
 * Decides a 0200 as the contract's development host does, and books it. One without an RRN
 * (DE37) cannot be told from another, so it is refused with {@code 30} (format error) and not
 * booked. Otherwise the checks, first that fails wins:
 * <ul>
 * <li>{@code 12} processing code neither purchase ({@code 00}) nor refund ({@code 20});
 * <li>{@code 13} DE4 missing or not a number;
 * <li>{@code 14} no PAN (neither DE2 nor DE35);
 * <li>a refund is decided by its original only (its card's scenario, expiry and PIN are about
 * debits): {@code 25} when DE48 is not {@code ORIG:<rrn>} of an approved purchase of this acquirer
 * that stands, {@code 13} when it would refund more than the purchase less earlier refunds;
 * <li>{@code 54} expiry (DE14, else DE35's) before this month or not a date (none at all is not checked);
 * <li>{@code 55} DE52 present and not the card's PIN (the catalogue's, {@value Catalogue#DEFAULT_PIN}
 * for other cards), or not a format 0 block;
 * <li>the card's scenario: {@code 05} declined, {@code 51} insufficient funds; else {@code 00}.
 * </ul>
 */
final class Authoriser {
    private static final ZoneId LAGOS = ZoneId.of("Africa/Lagos");
    private static final DateTimeFormatter MMDD = DateTimeFormatter.ofPattern("MMdd");
    private static final DateTimeFormatter YYMM = DateTimeFormatter.ofPattern("yyMM");

    private final Catalogue catalogue;
    private final PinBlocks pinBlocks;
    private final Ledger ledger;

    Authoriser(Catalogue catalogue, PinBlocks pinBlocks, Ledger ledger) {
        this.catalogue = catalogue;
        this.pinBlocks = pinBlocks;
        this.ledger = ledger;
    }

    /** The booking for this 0200: decided now, or the first answer again for a repeated one. */
    Booking authorise(ISOMsg request) {
        if (!request.hasField(37)) return new Booking(Kind.OTHER, 0, settlementDate(), "30", "", "");
        String acquirer = request.getString(32);
        return ledger.bookOnce(Ledger.key(acquirer, request.getString(37)), () -> decide(request, acquirer));
    }

    private Booking decide(ISOMsg request, String acquirer) {
        String processingCode = request.getString(3);
        Kind kind = processingCode == null ? Kind.OTHER
                : processingCode.startsWith("00") ? Kind.PURCHASE
                : processingCode.startsWith("20") ? Kind.REFUND : Kind.OTHER;
        long amount = amountOf(request.getString(4));
        String original = kind == Kind.REFUND ? originalKey(acquirer, request.getString(48)) : "";
        String code = responseCode(request, kind, amount, original);
        String authCode = code.equals("00") ? String.format("%06d", ThreadLocalRandom.current().nextInt(1_000_000)) : "";
        return new Booking(kind, Math.max(amount, 0), settlementDate(), code, authCode, original);
    }

    /** The Lagos calendar date the host received the request on, as DE15 (MMDD). */
    private static String settlementDate() {
        return LocalDate.now(LAGOS).format(MMDD);
    }

    private String responseCode(ISOMsg request, Kind kind, long amount, String original) {
        String pan = panOf(request);
        if (kind == Kind.OTHER) return "12";
        if (amount < 0) return "13";
        if (pan == null) return "14";
        if (kind == Kind.REFUND) {
            long refundable = original.isEmpty() ? -1 : ledger.refundable(original);
            if (refundable < 0) return "25";
            return amount <= refundable ? "00" : "13";
        }
        if (expired(expiryOf(request))) return "54";
        if (request.hasField(52) && !pinIsRight(request.getBytes(52), pan)) return "55";
        return catalogue.scenarioCode(pan);
    }

    private boolean pinIsRight(byte[] block, String pan) {
        try {
            return catalogue.pinOf(pan).equals(pinBlocks.pinOf(block, pan));
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean expired(String yymm) {
        if (yymm == null) return false;
        if (!yymm.matches("\\d{2}(0[1-9]|1[0-2])")) return true;
        return yymm.compareTo(LocalDate.now(LAGOS).format(YYMM)) < 0;
    }

    private static String panOf(ISOMsg request) {
        if (request.hasField(2)) return request.getString(2);
        String track2 = request.getString(35);
        return track2 != null && track2.indexOf('=') > 0 ? track2.substring(0, track2.indexOf('=')) : null;
    }

    private static String expiryOf(ISOMsg request) {
        if (request.hasField(14)) return request.getString(14);
        String track2 = request.getString(35);
        int separator = track2 == null ? -1 : track2.indexOf('=');
        return separator >= 0 && track2.length() >= separator + 5 ? track2.substring(separator + 1, separator + 5) : null;
    }

    private static long amountOf(String de4) {
        return de4 != null && de4.matches("\\d{1,12}") ? Long.parseLong(de4) : -1;
    }

    private static String originalKey(String acquirer, String de48) {
        return de48 != null && de48.startsWith("ORIG:") ? Ledger.key(acquirer, de48.substring(5)) : "";
    }
}
