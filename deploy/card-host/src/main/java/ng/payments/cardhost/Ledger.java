package ng.payments.cardhost;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Every 0200 the host decided and every reversal it was sent, by acquirer id (DE32) and RRN
 * (DE37), in memory and in a journal file replayed at start, so a restarted host keeps its
 * answers and its totals. One lock for all of it: a dev host's traffic is small, and deciding and
 * booking under it is what makes a repeated 0200 never approved twice. The journal has a
 * tab-separated line per booking ({@code B}) and per reversal ({@code R}), written before the
 * answer is sent.
 */
final class Ledger {
    enum Kind { PURCHASE, REFUND, OTHER }

    /** What the host answered a 0200 with; a refund names the key of the purchase it refunds. */
    record Booking(Kind kind, long amount, String settlementDate, String responseCode, String authCode,
            String original) {
        boolean approved() {
            return responseCode.equals("00");
        }
    }

    /** One settlement date's totals, as DE74/86, DE76/88 and DE77/89 carry them. */
    record Totals(long refundCount, long refundAmount, long purchaseCount, long purchaseAmount,
            long reversedCount, long reversedAmount) {
        /** DE97's amount: purchases that stand less refunds. */
        long net() {
            return purchaseAmount - refundAmount;
        }
    }

    private final Map<String, Booking> bookings = new HashMap<>();
    /** Keys reversed, whether or not their 0200 has arrived yet (a reversal may overtake it). */
    private final Set<String> reversed = new HashSet<>();
    private final BufferedWriter journal;

    Ledger(Path journalFile) throws IOException {
        if (Files.exists(journalFile)) replay(journalFile);
        journal = Files.newBufferedWriter(journalFile, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static String key(String acquirer, String rrn) {
        return (acquirer == null ? "" : acquirer) + "/" + (rrn == null ? "" : rrn.stripTrailing());
    }

    /** The booking of the first 0200 with this key: {@code decide}'s, booked now, or the earlier one again. */
    synchronized Booking bookOnce(String key, Supplier<Booking> decide) {
        Booking earlier = bookings.get(key);
        if (earlier != null) return earlier;
        Booking booking = decide.get();
        bookings.put(key, booking);
        append(String.join("\t", "B", key, booking.kind().name(), Long.toString(booking.amount()),
                booking.settlementDate(), booking.responseCode(), booking.authCode(), booking.original()));
        return booking;
    }

    /** What may still be refunded against this purchase, or -1 when it is no approved purchase that stands. */
    synchronized long refundable(String purchaseKey) {
        Booking purchase = bookings.get(purchaseKey);
        if (purchase == null || purchase.kind() != Kind.PURCHASE || !purchase.approved() || reversed.contains(purchaseKey)) {
            return -1;
        }
        long refunded = bookings.entrySet().stream()
                .filter(e -> e.getValue().kind() == Kind.REFUND && e.getValue().approved())
                .filter(e -> purchaseKey.equals(e.getValue().original()) && !reversed.contains(e.getKey()))
                .mapToLong(e -> e.getValue().amount())
                .sum();
        return purchase.amount() - refunded;
    }

    /**
     * Marks the key reversed (once; a repeat changes nothing) and says whether there was an
     * approved 0200 to reverse. A reversal that overtakes its 0200 still marks the key, so that
     * 0200, when it comes, is answered as decided but counts as reversed.
     */
    synchronized boolean reverse(String key) {
        if (reversed.add(key)) append("R\t" + key);
        Booking booking = bookings.get(key);
        return booking != null && booking.approved();
    }

    synchronized Totals totals(String settlementDate) {
        Tally refunds = new Tally(), purchases = new Tally(), reversedPurchases = new Tally();
        bookings.forEach((key, booking) -> {
            if (!booking.approved() || !booking.settlementDate().equals(settlementDate)) return;
            boolean standing = !reversed.contains(key);
            if (booking.kind() == Kind.PURCHASE) (standing ? purchases : reversedPurchases).add(booking.amount());
            else if (booking.kind() == Kind.REFUND && standing) refunds.add(booking.amount());
        });
        return new Totals(refunds.count, refunds.amount, purchases.count, purchases.amount,
                reversedPurchases.count, reversedPurchases.amount);
    }

    private static final class Tally {
        long count;
        long amount;

        void add(long value) {
            count++;
            amount += value;
        }
    }

    /**
     * Replays every whole line. A last line without its newline was cut short by a crash before
     * its request was answered: it is dropped, so the next line starts on a line of its own.
     */
    private void replay(Path journalFile) throws IOException {
        byte[] bytes = Files.readAllBytes(journalFile);
        int whole = 0;
        for (int i = 0; i < bytes.length; i++) if (bytes[i] == '\n') whole = i + 1;
        new String(bytes, 0, whole, StandardCharsets.UTF_8).lines().forEach(this::replay);
        if (whole < bytes.length) {
            try (FileChannel channel = FileChannel.open(journalFile, StandardOpenOption.WRITE)) {
                channel.truncate(whole);
            }
        }
    }

    private void replay(String line) {
        String[] parts = line.split("\t", -1);
        if (parts[0].equals("R") && parts.length == 2) {
            reversed.add(parts[1]);
        } else if (parts[0].equals("B") && parts.length == 8) {
            bookings.put(parts[1], new Booking(Kind.valueOf(parts[2]), Long.parseLong(parts[3]), parts[4],
                    parts[5], parts[6], parts[7]));
        } else {
            throw new IllegalStateException("the journal has a line this host never writes: " + line);
        }
    }

    private void append(String line) {
        try {
            journal.write(line);
            journal.newLine();
            journal.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
