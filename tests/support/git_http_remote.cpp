#include "support/git_http_remote.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

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

RecordingListener::RecordingListener() {
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
  thread_ = std::thread([this] {
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
