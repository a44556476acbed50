package ng.payments.cardhost;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The requests received with a DE37, so a test can ask what reached the host (GET /messages). */
final class MessageLog {
    private final Map<String, List<Map<String, Object>>> byRrn = new HashMap<>();

    /** @param responseCode the DE39 decided: sent, unless a fault held the answer back */
    synchronized void record(String mti, String stan, String rrn, String responseCode) {
        if (rrn == null) return;
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("mti", mti);
        entry.put("stan", stan);
        entry.put("de39", responseCode);
        entry.put("time", Instant.now().toString());
        byRrn.computeIfAbsent(rrn.stripTrailing(), r -> new ArrayList<>()).add(entry);
    }

    synchronized List<Map<String, Object>> of(String rrn) {
        return List.copyOf(byRrn.getOrDefault(rrn.stripTrailing(), List.of()));
    }
}
