/**
 * 参数表（argument-table.ts）每一行的说明，按主机的英文短语索引，接在“程序 参数”之后。
 * 主机新增一行而这里没有时，页面就显示主机的英文句子。
 */
export const DOES_ZH: Record<string, string> = {
  "runs another program for each file": "会对每个文件运行另一个程序",
  "deletes or writes a file": "会删除或写入文件",
  "runs another program for each match": "会对每个匹配项运行另一个程序",
  "runs another program": "会运行另一个程序",
  "runs another program on each file": "会在每个文件上运行另一个程序",
  "runs another program to compress its temporary files": "会运行另一个程序来压缩它的临时文件",
  "runs another program to test the archive": "会运行另一个程序来测试压缩包",
  "runs another program as its remote shell": "会把另一个程序当作远程 shell 运行",
  "runs another program on this machine": "会在本机上运行另一个程序",
  "reads another configuration or control socket, which can name a program to run":
    "会读取另一份配置或控制套接字，其中可以指定要运行的程序",
  "runs another program instead of ssh": "会运行另一个程序来代替 ssh",
  "runs another program as its pager or browser": "会把另一个程序当作分页器或浏览器运行",
  "reads key bindings that can set LESSOPEN, a program it runs":
    "会读取按键绑定，其中可以设置 LESSOPEN（它会运行的程序）",
  "loads a program or extension that cannot be read here": "会加载一个这里无法检查的程序或扩展",
  "may run a command or write a file (system, |, >, getline)":
    "可能运行命令或写入文件（system、|、>、getline）",
  "reads a script that cannot be read here": "会读取一个这里无法检查的脚本",
  "may run a command or write a file (e, w)": "可能运行命令或写入文件（e、w）",
  "sets configuration, which can name programs to run (core.pager, core.sshCommand, alias.*)":
    "会设置配置，其中可以指定要运行的程序（core.pager、core.sshCommand、alias.*）",
  "runs git's helper programs from another directory": "会从另一个目录运行 git 的辅助程序",
  "runs another program (a tool, an editor or a mailer)": "会运行另一个程序（工具、编辑器或邮件程序）",
  "uses a transport that runs a program": "会使用一种运行程序的传输方式",
  "runs another program or sets configuration": "会运行另一个程序或设置配置",
  "runs another program after each commit": "会在每次提交后运行另一个程序",
  "runs another program in each submodule": "会在每个子模块中运行另一个程序",
  "runs another program on the matching files": "会在匹配的文件上运行另一个程序",
  "changes a setting, which can name a program git runs later":
    "会修改一项设置，其中可以指定 git 之后运行的程序",
  "sets a setting (only --get and --list just read), which can name a program git runs later":
    "会设置一项配置（只有 --get 和 --list 只读），其中可以指定 git 之后运行的程序",
  "runs scripts with another program": "会用另一个程序运行脚本",
  "runs another program, or changes settings that name one": "会运行另一个程序，或修改指定程序的设置",
  "changes a setting, which can name a program npm runs later":
    "会修改一项设置，其中可以指定 npm 之后运行的程序",
  "downloads and runs a create-* package": "会下载并运行一个 create-* 包",
  "looks a variable up by a name whose subscript bash evaluates as code":
    "会按名字查找变量，而 bash 会把名字里的下标当作代码求值",
  "makes a name refer to another variable, or its values arithmetic, which can run code":
    "会让一个名字指向另一个变量，或让它的值按算术求值，这可能运行代码",
};
