"""The SSE hub on its own: framing, filtering per game, pings, lagging devices, shutdown."""

from __future__ import annotations

import json
import threading

import pytest

from companion.web.live import Hub, HubClosedError, Message, TooManyStreamsError


def parse(chunk: str) -> dict[str, str]:
    fields = {}
    for line in chunk.strip("\n").split("\n"):
        key, _, value = line.partition(": ")
        fields[key] = value
    return fields


def test_message_encoding_has_id_event_and_one_json_data_line():
    text = Message("state", {"game": 3, "version": 12, "note": "a\nb"}, game=3, id=12).encode()
    assert text.endswith("\n\n")
    fields = parse(text)
    assert fields["id"] == "12"
    assert fields["event"] == "state"
    assert json.loads(fields["data"]) == {"game": 3, "version": 12, "note": "a\nb"}
    assert text.count("\ndata: ") == 1


def test_message_without_id_has_no_id_line():
    assert "id:" not in Message("tower", {"camera": "ok"}).encode()


def test_stream_starts_with_retry_then_initial_then_published():
    hub = Hub(ping_seconds=5, retry_ms=1234)
    sub = hub.subscribe(game=1)
    stream = hub.stream(sub, lambda: [Message("tower", {"x": 1})])
    assert next(stream) == "retry: 1234\n\n"
    assert parse(next(stream))["event"] == "tower"
    hub.publish_state(1, 7)
    fields = parse(next(stream))
    assert (fields["event"], fields["id"]) == ("state", "7")
    stream.close()
    assert hub.client_count == 0


def test_game_subscription_ignores_other_games_but_gets_tower_events():
    hub = Hub(ping_seconds=5)
    one, every = hub.subscribe(game=1), hub.subscribe()
    hub.publish_state(2, 4)
    hub.publish_reading(1, {"counts": {}})
    hub.publish_tower({"camera": "ok"})
    got_one = [one.queue.get_nowait().event for _ in range(one.queue.qsize())]
    got_every = [every.queue.get_nowait().event for _ in range(every.queue.qsize())]
    assert got_one == ["reading", "tower"]
    assert got_every == ["state", "reading", "tower"]


def test_quiet_stream_sends_ping_comments():
    hub = Hub(ping_seconds=0.01)
    stream = hub.stream(hub.subscribe())
    next(stream)  # retry
    assert next(stream) == ": ping\n\n"


def test_lagging_device_keeps_the_newest_messages_and_publish_never_blocks():
    hub = Hub(ping_seconds=5, queue_size=3)
    sub = hub.subscribe(game=1)
    for version in range(1, 11):
        hub.publish_state(1, version)
    versions = [sub.queue.get_nowait().id for _ in range(sub.queue.qsize())]
    assert versions == [8, 9, 10]


def test_close_ends_open_streams_and_refuses_new_ones():
    hub = Hub(ping_seconds=30)
    stream = hub.stream(hub.subscribe())
    next(stream)
    ended = threading.Event()

    def drain() -> None:
        for _ in stream:
            pass
        ended.set()

    worker = threading.Thread(target=drain)
    worker.start()
    hub.close()
    assert ended.wait(timeout=5), "the stream did not end after Hub.close()"
    worker.join(timeout=5)
    assert hub.client_count == 0
    with pytest.raises(HubClosedError):
        hub.subscribe()


def test_too_many_streams_is_refused_with_a_readable_message():
    hub = Hub(max_clients=2)
    hub.subscribe()
    hub.subscribe()
    with pytest.raises(TooManyStreamsError, match="close a browser tab"):
        hub.subscribe()


def test_state_events_never_go_backwards_or_repeat():
    hub = Hub(ping_seconds=0.05)
    sub = hub.subscribe(game=1)
    stream = hub.stream(sub, lambda: [Message("state", {"game": 1, "version": 3}, game=1, id=3)], seen={1: 2})
    next(stream)  # retry
    assert parse(next(stream))["id"] == "3"
    for version in (2, 3, 4):  # late relay of older versions, then news
        hub.publish_state(1, version)
    assert parse(next(stream))["id"] == "4"
    assert next(stream) == ": ping\n\n"
    stream.close()


def test_seen_version_suppresses_the_catch_up():
    hub = Hub(ping_seconds=0.05)
    stream = hub.stream(
        hub.subscribe(game=1), lambda: [Message("state", {"game": 1, "version": 5}, game=1, id=5)], seen={1: 5}
    )
    next(stream)
    assert next(stream) == ": ping\n\n"
    stream.close()


def test_closing_an_unstarted_stream_frees_its_subscription():
    hub = Hub()
    stream = hub.stream(hub.subscribe())
    assert hub.client_count == 1
    stream.close()  # e.g. the device vanished before the server sent the first chunk
    assert hub.client_count == 0


def test_a_new_stream_of_the_same_tab_replaces_the_old_one_at_once():
    hub = Hub(ping_seconds=30, max_clients=2)
    old = hub.stream(hub.subscribe(game=1, client="tab-1"))
    next(old)  # retry
    other = hub.subscribe(game=1, client="tab-2")
    new = hub.subscribe(game=1, client="tab-1")  # a reload: no slot is needed for it
    assert hub.client_count == 2
    with pytest.raises(StopIteration):  # the old stream ends without waiting for a ping
        next(old)
    hub.publish_state(1, 3)
    assert new.queue.get_nowait().id == 3 and other.queue.get_nowait().id == 3


def test_a_stream_ends_soon_after_its_client_left_and_frees_the_slot():
    hub = Hub(ping_seconds=30, poll_seconds=0.01)
    left = threading.Event()
    stream = hub.stream(hub.subscribe(), disconnected=left.is_set)
    next(stream)
    left.set()
    with pytest.raises(StopIteration):
        next(stream)  # within one poll, not after a 30 s ping
    assert hub.client_count == 0


def test_a_full_hub_gives_the_slots_of_clients_that_left_to_new_ones():
    hub = Hub(ping_seconds=30, poll_seconds=30, max_clients=2)
    gone = hub.stream(hub.subscribe(), disconnected=lambda: True)  # its poll is far away
    here = hub.stream(hub.subscribe(), disconnected=lambda: False)
    newcomer = hub.subscribe()
    assert hub.client_count == 2
    with pytest.raises(TooManyStreamsError):
        hub.subscribe()  # the two left are both still there
    for s in (gone, here):
        s.close()
    newcomer.close()


def test_a_stream_ends_at_its_maximum_age_asking_the_page_to_reconnect():
    hub = Hub(ping_seconds=30, poll_seconds=0.01, max_age_seconds=0.05)
    stream = hub.stream(hub.subscribe(game=1), disconnected=lambda: False)
    next(stream)
    assert parse(next(stream))["event"] == "bye"
    with pytest.raises(StopIteration):
        next(stream)
    assert hub.client_count == 0
