package ng.payments.cardhost;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The faults a test asked for (PUT /faults): the first rule that matches a request decides how
 * its answer goes, and a rule with {@code times} is spent after that many requests.
 */
final class Faults {
    enum Action { DELAY, DROP, TWICE, CLOSE }

    static final class Rule {
        final String pan;
        final String mti;
        final Action action;
        final long ms;
        /** Requests left before the rule is spent; negative for a rule that never is. */
        int remaining;

        Rule(String pan, String mti, Action action, long ms, int remaining) {
            this.pan = pan;
            this.mti = mti;
            this.action = action;
            this.ms = ms;
            this.remaining = remaining;
        }
    }

    private final List<Rule> rules = new ArrayList<>();

    /** Replaces every rule with the JSON list given, or throws IllegalArgumentException naming what is wrong. */
    synchronized void replace(Object json) {
        if (!(json instanceof List<?> list)) throw new IllegalArgumentException("expected a list of rules");
        List<Rule> parsed = new ArrayList<>();
        for (Object item : list) parsed.add(parse(item));
        rules.clear();
        rules.addAll(parsed);
    }

    synchronized void clear() {
        rules.clear();
    }

    /** The rule for this request, if any, counting it against the rule's {@code times}. */
    synchronized Rule take(String mti, String pan) {
        for (Rule rule : rules) {
            if (!rule.mti.equals(mti) || (rule.pan != null && !rule.pan.equals(pan))) continue;
            if (rule.remaining > 0 && --rule.remaining == 0) rules.remove(rule);
            return rule;
        }
        return null;
    }

    private static Rule parse(Object item) {
        if (!(item instanceof Map<?, ?> rule)) throw new IllegalArgumentException("a rule must be an object");
        Action action;
        try {
            action = Action.valueOf(String.valueOf(rule.get("action")).toUpperCase());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("action must be delay, drop, twice or close");
        }
        long ms = rule.get("ms") instanceof Number n ? n.longValue() : -1;
        if (action == Action.DELAY && ms < 0) throw new IllegalArgumentException("delay needs ms");
        int times = rule.get("times") instanceof Number n ? n.intValue() : -1;
        if (rule.containsKey("times") && times < 1) throw new IllegalArgumentException("times must be 1 or more");
        Object pan = rule.get("pan");
        Object mti = rule.get("mti");
        return new Rule(pan == null ? null : pan.toString(), mti == null ? "0200" : mti.toString(), action, ms, times);
    }
}
