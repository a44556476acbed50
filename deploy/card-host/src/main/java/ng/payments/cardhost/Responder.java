package ng.payments.cardhost;

import org.jpos.iso.ISOException;
import org.jpos.iso.ISOMsg;

import ng.payments.cardhost.Ledger.Booking;
import ng.payments.cardhost.Ledger.Totals;

/** The answer to each request the contract has a host answer (shared/spec/card-network.md), or null. */
final class Responder {
    private final Authoriser authoriser;
    private final Ledger ledger;

    Responder(Authoriser authoriser, Ledger ledger) {
        this.authoriser = authoriser;
        this.ledger = ledger;
    }

    ISOMsg respond(ISOMsg request) throws ISOException {
        return switch (request.getMTI()) {
            case "0800" -> networkManagement(request);
            case "0200" -> financial(request);
            case "0420", "0421" -> reversal(request);
            case "0500" -> reconciliation(request);
            default -> null;
        };
    }

    /** Sign-on, echo and sign-off are all welcome; any other DE70 is not a function of this host. */
    private ISOMsg networkManagement(ISOMsg request) throws ISOException {
        ISOMsg answer = answer("0810", request, 7, 11, 70);
        String function = request.getString(70);
        boolean known = "001".equals(function) || "301".equals(function) || "002".equals(function);
        answer.set(39, known ? "00" : "12");
        return answer;
    }

    private ISOMsg financial(ISOMsg request) throws ISOException {
        Booking booking = authoriser.authorise(request);
        ISOMsg answer = answer("0210", request, 3, 4, 7, 11, 37, 41, 42, 49);
        answer.set(39, booking.responseCode());
        if (booking.approved()) answer.set(38, booking.authCode());
        answer.set(15, booking.settlementDate());
        return answer;
    }

    /** {@code 00} when an approved 0200 is (now, or already) reversed; {@code 25} when there is none to reverse. */
    private ISOMsg reversal(ISOMsg request) throws ISOException {
        boolean reversed = ledger.reverse(Ledger.key(request.getString(32), request.getString(37)));
        ISOMsg answer = answer("0430", request, 11, 37, 90);
        answer.set(39, reversed ? "00" : "25");
        return answer;
    }

    private ISOMsg reconciliation(ISOMsg request) throws ISOException {
        ISOMsg answer = answer("0510", request, 11, 15);
        Totals ours = ledger.totals(String.valueOf(request.getString(15)));
        answer.set(39, agrees(request, ours) ? "00" : "95");
        return answer;
    }

    /**
     * Compares numbers, not text (so {@code C0} and {@code D0} are both zero); a field missing or not a
     * number disagrees. DE97 is signed: {@code C} for purchases that stand less refunds, {@code D}
     * when the refunds are more.
     */
    private static boolean agrees(ISOMsg request, Totals ours) {
        try {
            String net = request.getString(97);
            long theirNet = Long.parseLong(net.substring(1)) * switch (net.charAt(0)) {
                case 'C' -> 1;
                case 'D' -> -1;
                default -> throw new NumberFormatException(net);
            };
            return number(request, 74) == ours.refundCount() && number(request, 86) == ours.refundAmount()
                    && number(request, 76) == ours.purchaseCount() && number(request, 88) == ours.purchaseAmount()
                    && number(request, 77) == ours.reversedCount() && number(request, 89) == ours.reversedAmount()
                    && theirNet == ours.net();
        } catch (RuntimeException notANumber) {
            return false;
        }
    }

    private static long number(ISOMsg request, int field) {
        return Long.parseLong(request.getString(field));
    }

    private static ISOMsg answer(String mti, ISOMsg request, int... echoed) throws ISOException {
        ISOMsg answer = new ISOMsg(mti);
        for (int field : echoed) {
            if (request.hasField(field)) answer.set(field, request.getString(field));
        }
        return answer;
    }
}
