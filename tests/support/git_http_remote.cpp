#include "support/git_http_remote.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <stdexcept>

#include "support/temp_dir.hpp"

namespace benchpr::testing {

GitHttpRemote::GitHttpRemote(const std::string& bare_dir) {
  run_checked("git config receive.updateServerInfo true", bare_dir);
  run_checked("git update-server-info", bare_dir);  // what the dumb protocol reads
  server_.set_mount_point("/acme/widgets.git", bare_dir);
  server_.set_logger([this](const httplib::Request& req, const httplib::Response&) {
    std::lock_guard<std::mutex> lock(mutex_);
    authorizations_.push_back(req.get_header_value("Authorization"));
  });
  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
}

GitHttpRemote::~GitHttpRemote() {
  server_.stop();
  thread_.join();
}

std::string GitHttpRemote::url() const {
  return "http://127.0.0.1:" + std::to_string(port_) + "/acme/widgets.git";
}

std::vector<std::string> GitHttpRemote::authorizations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return authorizations_;
}

namespace {

void write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Passes a proxied request ("GET http://127.0.0.1:PORT/path HTTP/1.1") to 127.0.0.1:PORT in
// origin form, with the connection closed after the answer, and relays the answer to `client`.
// False when the request is not one it can forward.
bool forward_to_loopback(int client, const std::string& head) {
  const std::string prefix = "http://127.0.0.1:";
  const auto target = head.find(' ');
  if (target == std::string::npos || head.compare(target + 1, prefix.size(), prefix) != 0)
    return false;
  const auto port_at = target + 1 + prefix.size();
  const auto path_at = head.find('/', port_at);
  const auto line_end = head.find("\r\n");
  if (path_at == std::string::npos || line_end == std::string::npos || path_at > line_end)
    return false;
  const int port = std::stoi(head.substr(port_at, path_at - port_at));
  std::string out = head.substr(0, target + 1) + head.substr(path_at, line_end - path_at) + "\r\n";
  std::size_t at = line_end + 2;
  while (at < head.size()) {
    const auto end = head.find("\r\n", at);
    if (end == std::string::npos || end == at) break;
    const std::string line = head.substr(at, end - at);
    at = end + 2;
    std::string name = line.substr(0, line.find(':'));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name != "connection" && name != "proxy-connection") out += line + "\r\n";
  }
  out += "Connection: close\r\n\r\n";
  const int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  if (server < 0 || ::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    if (server >= 0) ::close(server);
    return false;
  }
  write_all(server, out);
  char buffer[8192];
  for (;;) {
    pollfd p{server, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) break;
    const ssize_t n = ::read(server, buffer, sizeof buffer);
    if (n <= 0) break;
    write_all(client, std::string(buffer, static_cast<std::size_t>(n)));
  }
  ::close(server);
  return true;
}

}  // namespace

RecordingListener::RecordingListener(Forward forward) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd_, 16) != 0 || ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    throw std::runtime_error("RecordingListener: cannot listen on 127.0.0.1");
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this, forward] {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      std::string head;
      char buffer[4096];
      for (int waits = 0; head.find("\r\n\r\n") == std::string::npos && waits < 40;) {
        pollfd c{client, POLLIN, 0};
        if (::poll(&c, 1, 50) <= 0) {
          ++waits;
          continue;
        }
        const ssize_t n = ::read(client, buffer, sizeof buffer);
        if (n <= 0) break;
        head.append(buffer, static_cast<std::size_t>(n));
      }
      {  // recorded before the answer, so a client that saw the answer finds it recorded
        std::lock_guard<std::mutex> lock(mutex_);
        requests_.push_back(head);
      }
      if (forward == Forward::Yes && forward_to_loopback(client, head)) {
        ::close(client);
        continue;
      }
      const char reply[] =
          "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
      (void)!::write(client, reply, sizeof reply - 1);
      ::close(client);
    }
  });
}

RecordingListener::~RecordingListener() {
  stop_ = true;
  thread_.join();
  ::close(fd_);
}

std::vector<std::string> RecordingListener::requests() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return requests_;
}

}  // namespace benchpr::testing
