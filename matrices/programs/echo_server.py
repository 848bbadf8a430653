#!/usr/bin/env python3
# A fixed-size request/response server written with Python's socketserver,
# for matrices/byo_example.yaml: reads SIZE-byte requests and answers each
# with the bytes it read (echo), one thread per connection, on 127.0.0.1:PORT.
import socket
import socketserver
import sys

size = int(sys.argv[2])


class Echo(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            buf = b""
            while len(buf) < size:
                chunk = self.request.recv(size - len(buf))
                if not chunk:
                    return
                buf += chunk
            self.request.sendall(buf)


class Server(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True


with Server(("127.0.0.1", int(sys.argv[1])), Echo) as srv:
    print("python server listening", flush=True)
    srv.serve_forever()
