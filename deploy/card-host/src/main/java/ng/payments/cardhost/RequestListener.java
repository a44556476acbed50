package ng.payments.cardhost;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jpos.iso.ISOChannel;
import org.jpos.iso.ISOMsg;
import org.jpos.iso.ISORequestListener;
import org.jpos.iso.ISOSource;

/**
 * Answers each request that arrives on a connection, as the Responder decides and the faults a
 * test set say. Whatever goes wrong is logged and the connection goes on: an exception out of
 * here would make jPOS close it.
 */
final class RequestListener implements ISORequestListener {
    private final Responder responder;
    private final Faults faults;
    private final MessageLog messages;
    private final ScheduledExecutorService scheduler;

    RequestListener(Responder responder, Faults faults, MessageLog messages, ScheduledExecutorService scheduler) {
        this.responder = responder;
        this.faults = faults;
        this.messages = messages;
        this.scheduler = scheduler;
    }

    @Override
    public boolean process(ISOSource source, ISOMsg request) {
        try {
            ISOMsg answer = responder.respond(request);
            String responseCode = answer == null ? null : answer.getString(39);
            messages.record(request.getMTI(), request.getString(11), request.getString(37), responseCode);
            if (answer == null) {
                CardHost.log("ignored a " + request.getMTI() + ": not a request this host answers");
                return true;
            }
            CardHost.log(request.getMTI() + " stan " + request.getString(11) + " rrn " + request.getString(37)
                    + " pan " + masked(request.getString(2)) + " -> " + answer.getMTI() + " " + responseCode);
            deliver(source, answer, faults.take(request.getMTI(), request.getString(2)));
        } catch (Exception e) {
            CardHost.log("could not answer a request: " + e);
        }
        return true;
    }

    /** Sends the answer, or does what the fault says instead; the request is decided and booked either way. */
    private void deliver(ISOSource source, ISOMsg answer, Faults.Rule fault) throws Exception {
        if (fault == null) {
            source.send(answer);
            return;
        }
        CardHost.log("fault " + fault.action + " on that answer");
        switch (fault.action) {
            case DELAY -> scheduler.schedule(() -> sendLate(source, answer), fault.ms, TimeUnit.MILLISECONDS);
            case DROP -> { }
            case TWICE -> {
                source.send(answer);
                source.send(answer);
            }
            case CLOSE -> ((ISOChannel) source).disconnect();
        }
    }

    private static void sendLate(ISOSource source, ISOMsg answer) {
        try {
            source.send(answer);
        } catch (Exception e) {
            CardHost.log("a delayed answer found its connection gone: " + e.getMessage());
        }
    }

    private static String masked(String pan) {
        return pan == null || pan.length() < 10 ? "-" : pan.substring(0, 6) + "…" + pan.substring(pan.length() - 4);
    }
}
