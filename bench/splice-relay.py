"""A relay that copies nothing through user space, for bench/network.bench.ts: a TCP relay on 127.0.0.1 to one upstream that moves
bytes with splice(2) through a pipe, never copying them through user space (Node has no splice). Prints its
port, then relays every connection it accepts until killed. Usage: python3 splice-relay.py HOST PORT"""
import fcntl
import os
import socket
import sys
import threading

F_SETPIPE_SZ = 1031
CHUNK = 1 << 20


def pump(source, sink):
    read_end, write_end = os.pipe()
    fcntl.fcntl(write_end, F_SETPIPE_SZ, CHUNK)
    try:
        while True:
            moved = os.splice(source.fileno(), write_end, CHUNK)
            if moved == 0:
                break
            while moved > 0:
                moved -= os.splice(read_end, sink.fileno(), moved)
    except OSError:
        pass
    finally:
        os.close(read_end)
        os.close(write_end)
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def main():
    upstream = (sys.argv[1], int(sys.argv[2]))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        server = socket.create_connection(upstream)
        for source, sink in ((client, server), (server, client)):
            threading.Thread(target=pump, args=(source, sink), daemon=True).start()


main()
